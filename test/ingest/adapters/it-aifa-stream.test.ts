/**
 * The streamed AIFA adapter (what `drugref ingest it-aifa` and the sync worker run) must give
 * exactly what the in-memory parser gives, read from disk line by line, fall back to a whole
 * read for a register whose medicines are not listed together, and refuse a register that
 * changes while the engine reads it.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../platform/db.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { openItAifa } from '../../../workers/ingest/adapters/it-aifa-stream.ts';
import { parseItAifa } from '../../../workers/ingest/adapters/it-aifa.ts';
import { fileInput } from '../../../workers/ingest/adapters/line-stream.ts';
import { parseAndIngest } from '../../../workers/ingest/apply.ts';
import type { StreamedAdapterResult } from '../../../workers/ingest/input.ts';
import type { AdapterResult, ProductEntry } from '../../../workers/ingest/snapshot.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { outcomeOf } from '../../../workers/ingest/row-outcome.ts';

const FIXTURES = new URL('../../fixtures/registers/it-aifa/', import.meta.url);
const NAMES = [
  'confezioni_fornitura.csv', 'PA_confezioni.csv', 'Classe_A_per_principio_attivo_28-02-2026.csv',
  'Classe_H_per_principio_attivo_28-02-2026.csv', 'Lista_farmaci_equivalenti.csv',
];
const fixture = (name: string): InputFile => ({ name, content: readFileSync(new URL(name, FIXTURES)) });

/** The streamed snapshot read to the end. */
async function collect(result: StreamedAdapterResult): Promise<AdapterResult> {
  const products: ProductEntry[] = [];
  for await (const p of result.snapshot.products as AsyncIterable<ProductEntry>) products.push(p);
  return { snapshot: { ...result.snapshot, products } as AdapterResult['snapshot'], problems: result.problems, files: result.files! };
}

describe('it-aifa streamed adapter', () => {
  let dir: string;
  let db: Database;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'it-aifa-'));
    for (const name of NAMES) copyFileSync(new URL(name, FIXTURES), join(dir, name));
    db = await openTestDatabase();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db.close();
  });

  it('reads the fixtures exactly as the in-memory parser does, from memory and from disk, yielding products as it goes', async () => {
    const parsed = parseItAifa(NAMES.map(fixture));
    const fromMemory = await openItAifa(NAMES.map(fixture));
    expect(Array.isArray(fromMemory.snapshot.products)).toBe(false);
    expect(await collect(fromMemory)).toEqual(parsed);
    const fromDisk = await openItAifa(NAMES.map((n) => fileInput(join(dir, n), n)));
    expect(await collect(fromDisk)).toEqual(parsed);
  });

  it('reads a register whose medicines are not listed together whole, with the same result', async () => {
    const lines = readFileSync(new URL('confezioni_fornitura.csv', FIXTURES), 'latin1').split('\r\n');
    // GLUCOPHAGE's second pack moved below IBUPROFENE DOC: AIC6 026846 appears twice.
    const shuffled = [lines[0], lines[1], lines[4], lines[2], ...lines.slice(3, 4), ...lines.slice(5)].join('\r\n');
    const file = { name: 'confezioni_fornitura.csv', content: Buffer.from(shuffled, 'latin1') };
    const opened = await openItAifa([file]);
    expect(Array.isArray(opened.snapshot.products)).toBe(true);
    expect(opened).toEqual(parseItAifa([file]));
  });

  it('refuses the ingest when the register changes while it is read', async () => {
    const path = join(dir, 'changing.csv');
    copyFileSync(new URL('confezioni_fornitura.csv', FIXTURES), path);
    const opened = await openItAifa([fileInput(path, 'confezioni_fornitura.csv')]);
    writeFileSync(path, readFileSync(path, 'latin1').replace('026846028;026846;028', '026846029;026846;029'), 'latin1');
    await expect(collect(opened)).rejects.toThrow(/line 3 reads differently/);
  });

  it('ingests from disk through parseAndIngest with the parser\'s counts', async () => {
    const files = NAMES.map((n) => fileInput(join(dir, n), n));
    const parsed = parseItAifa(NAMES.map(fixture));
    const result = await parseAndIngest(db, 'it-aifa', files, { strict: false, chunkSize: 2 });
    expect(result.outcome).toBe('ok');
    if (result.outcome !== 'ok') return;
    expect(result.files).toEqual(parsed.files!.map((f) => outcomeOf(f)));
    expect(result.problems).toEqual(parsed.problems);
    expect(result.report.tables.products.insert).toBe(parsed.snapshot.products!.length);
    expect(result.report.tables.packs.insert).toBe(parsed.snapshot.products!.reduce((n, p) => n + p.packs.length, 0));
  });
});
