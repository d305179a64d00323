/**
 * The streamed dm+d adapter (what `drugref ingest gb-dmd` runs) must give exactly what the
 * in-memory parser gives, from memory and from disk, with records and characters split across
 * read blocks; a file that is cut off midway must refuse the ingest with nothing written.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDmdRelease } from '../../../bench/dmd-release.ts';
import type { Database } from '../../../platform/db.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseGbDmd } from '../../../workers/ingest/adapters/gb-dmd.ts';
import { openGbDmd } from '../../../workers/ingest/adapters/gb-dmd-open.ts';
import { fileInput } from '../../../workers/ingest/adapters/line-stream.ts';
import { parseAndIngest } from '../../../workers/ingest/apply.ts';
import type { StreamedAdapterResult } from '../../../workers/ingest/input.ts';
import type { AdapterResult, ProductEntry } from '../../../workers/ingest/snapshot.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { tableCounts } from '../snapshots.ts';
import { outcomeOf } from '../../../workers/ingest/row-outcome.ts';

const DIR = new URL('../../fixtures/registers/gb-dmd/', import.meta.url);
const NAMES = readdirSync(DIR).filter((n) => n.endsWith('.xml')).sort();
const inMemory = (paths: string[]): InputFile[] => paths.map((p) => ({ name: basename(p), content: readFileSync(p) }));
const onDisk = (paths: string[]): InputFile[] => paths.map((p) => fileInput(p, basename(p)));

/** The streamed snapshot read to the end. */
async function collect(result: StreamedAdapterResult): Promise<AdapterResult> {
  const products: ProductEntry[] = [];
  for await (const p of result.snapshot.products as AsyncIterable<ProductEntry>) products.push(p);
  return { snapshot: { ...result.snapshot, products }, problems: result.problems, files: result.files! };
}

describe('gb-dmd streamed', () => {
  let dir: string;
  let db: Database;
  let generated: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'drugref-dmd-stream-'));
    generated = await writeDmdRelease(dir, 6000);
    db = await openTestDatabase();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db.close();
  });

  it('reads the fixtures exactly as the in-memory parser does, from memory and from disk', async () => {
    for (const folder of ['', 'markets/']) {
      const names = readdirSync(new URL(folder, DIR)).filter((n) => n.endsWith('.xml')).sort();
      const paths = names.map((n) => new URL(`${folder}${n}`, DIR).pathname);
      const expected = parseGbDmd(inMemory(paths));
      expect(expected.snapshot.products!.length).toBeGreaterThan(0);
      expect(await collect(await openGbDmd(inMemory(paths)))).toEqual(expected);
      expect(await collect(await openGbDmd(onDisk(paths)))).toEqual(expected);
    }
    expect(NAMES).toContain('f_lookup2_3240526.xml');
  });

  it('reads a generated release whose files span several read blocks with the same products, problems and counts', async () => {
    const amp = readFileSync(generated.find((p) => p.includes('f_amp2_'))!);
    // Larger than one 1 MiB read block, with accented names (two UTF-8 bytes) throughout.
    expect(amp.length).toBeGreaterThan(1 << 20);
    const expected = parseGbDmd(inMemory(generated));
    expect(expected.snapshot.products!.length).toBeGreaterThan(5900);
    expect(expected.problems.map((p) => p.message)).toEqual(expect.arrayContaining([
      expect.stringMatching(/APID "\d+" is not a valid dm\+d/), expect.stringMatching(/repeats the AMPP of line/), expect.stringMatching(/"4,61" is not a price/),
    ]));
    expect(expected.snapshot.products!.some((p) => p.holder === 'Société Générique')).toBe(true);
    expect(await collect(await openGbDmd(onDisk(generated)))).toEqual(expected);
  });

  it('rejects on opening what the parser rejects, with the same message', async () => {
    const broken = { name: 'broken.xml', content: Buffer.from('<LOOKUP><SUPPLIER>') };
    const unknown = { name: 'x.xml', content: Buffer.from('<?xml version="1.0"?><SOMETHING/>') };
    const files = [...inMemory(generated), unknown];
    expect(() => parseGbDmd(files)).toThrow(/root element <SOMETHING> is not one of the dm\+d release files/);
    await expect(openGbDmd(files)).rejects.toThrow(/root element <SOMETHING> is not one of the dm\+d release files/);
    await expect(openGbDmd([...onDisk(generated), onDisk([generated[0]!])[0]!])).rejects.toThrow(/a second lookup file/);
    await expect(openGbDmd([broken])).rejects.toThrow(/broken\.xml: not well-formed XML/);
    const withoutVmpp = generated.filter((p) => !p.includes('f_vmpp2_'));
    await expect(openGbDmd(onDisk(withoutVmpp))).rejects.toThrow(/needs the VMPP file\(s\) \(f_vmpp2_\*\.xml\)/);
  });

  it('refuses the ingest and writes nothing when a file on disk is cut off midway', async () => {
    const counts = await tableCounts(db);
    const ampp = generated.find((p) => p.includes('f_ampp2_'))!;
    const bytes = readFileSync(ampp);
    const cutDir = mkdtempSync(join(dir, 'cut-'));
    const cutPath = join(cutDir, basename(ampp));
    writeFileSync(cutPath, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const files = onDisk(generated.map((p) => (p === ampp ? cutPath : p)));
    const result = await parseAndIngest(db, 'gb-dmd', files, { strict: false, chunkSize: 50 });
    expect(result).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/file rejected: .*f_ampp2_3240526\.xml: not well-formed XML/) });
    expect(await tableCounts(db)).toEqual(counts);
  });

  it('ingests from disk through parseAndIngest with the parser\'s counts', async () => {
    const paths = NAMES.map((n) => new URL(n, DIR).pathname);
    const parsed = parseGbDmd(inMemory(paths));
    const result = await parseAndIngest(db, 'gb-dmd', onDisk(paths), { strict: false, chunkSize: 2 });
    expect(result.outcome).toBe('ok');
    if (result.outcome !== 'ok') return;
    expect(result.files).toEqual(parsed.files!.map((f) => outcomeOf(f)));
    expect(result.problems).toEqual(parsed.problems);
    expect(result.report.tables.products.insert).toBe(parsed.snapshot.products!.length);
  });
});
