/**
 * The streamed RxNorm adapter (what `drugref ingest us-rxnorm` runs) must give exactly what the
 * in-memory parser gives, from memory and from disk, on the fixtures and on a generated release
 * spanning several read blocks; a release that changes while the engine reads it must refuse the
 * ingest with nothing written.
 */
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRxnormRelease } from '../../../bench/rxnorm-release.ts';
import type { Database } from '../../../platform/db.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { fileInput } from '../../../workers/ingest/adapters/line-stream.ts';
import { parseUsRxnorm } from '../../../workers/ingest/adapters/us-rxnorm.ts';
import { openUsRxnorm } from '../../../workers/ingest/adapters/us-rxnorm-open.ts';
import { parseAndIngest } from '../../../workers/ingest/apply.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { collectStreamed } from '../../helpers/streamed.ts';
import { tableCounts } from '../snapshots.ts';

const FIXTURES = new URL('../../fixtures/registers/us-rxnorm/', import.meta.url);
const fixture = (name: string, as = name): InputFile => ({ name: as, content: readFileSync(new URL(name, FIXTURES)) });
const onDisk = (name: string, as = name): InputFile => fileInput(new URL(name, FIXTURES).pathname, as);


const messageOf = async (run: () => unknown): Promise<string> => {
  try {
    await run();
    return '';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('us-rxnorm streamed', () => {
  let dir: string;
  let db: Database;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'drugref-rxnorm-stream-'));
    db = await openTestDatabase();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db.close();
  });

  it('reads the fixtures exactly as the in-memory parser does, from memory and from disk, in any order and renamed', async () => {
    for (const [names, as] of [[['RXNSAT.RRF', 'RXNCONSO.RRF'], ['RXNSAT.RRF', 'RXNCONSO.RRF']], [['RXNCONSO.RRF', 'RXNSAT.RRF'], ['conso.txt', 'sat.txt']]]) {
      const expected = parseUsRxnorm(names!.map((n, i) => fixture(n, as![i])));
      expect(expected.snapshot.products!.length).toBeGreaterThan(0);
      expect(expected.problems.length).toBeGreaterThan(0);
      expect(await collectStreamed(await openUsRxnorm(names!.map((n, i) => fixture(n, as![i]))))).toEqual(expected);
      expect(await collectStreamed(await openUsRxnorm(names!.map((n, i) => onDisk(n, as![i]))))).toEqual(expected);
    }
  });

  it('refuses on opening what the parser refuses, with the same message', async () => {
    for (const names of [['other.RRF'], ['RXNSAT.RRF']]) {
      const message = await messageOf(() => parseUsRxnorm(names.map((n) => fixture(n))));
      expect(message).not.toBe('');
      await expect(openUsRxnorm(names.map((n) => onDisk(n)))).rejects.toThrow(message);
    }
    // A member of another layout beside RXNCONSO is named unused on both paths, not refused.
    const withOther = ['RXNCONSO.RRF', 'other.RRF'];
    expect((await openUsRxnorm(withOther.map((n) => onDisk(n)))).files).toEqual(parseUsRxnorm(withOther.map((n) => fixture(n))).files);
  });

  it('reads a generated release spanning several read blocks, with a Windows-1252 line, as the parser does', async () => {
    const [conso, sat] = await writeRxnormRelease(dir, 5000);
    appendFileSync(conso!, Buffer.from('9000001|ENG||||||1||||RXNORM|SBD|9000001|caf\xe9 200 MG Oral Tablet [Caf\xe9]||N|4096|\n', 'latin1'));
    appendFileSync(sat!, '9000001|||1|AUI|9000001|||NDC|RXNORM|09000001000|N|4096|\n');
    expect(readFileSync(sat!).length).toBeGreaterThan(3 << 20);
    const expected = parseUsRxnorm([{ name: 'RXNCONSO.RRF', content: readFileSync(conso!) }, { name: 'RXNSAT.RRF', content: readFileSync(sat!) }]);
    expect(new Set(expected.problems.map((p) => p.message.replace(/[\d"]+/g, '#')))).toEqual(new Set([
      '# fields instead of #', 'MTHSPL substance code #RX#!# is not a valid UNII', 'NDC #not-an-ndc# is not an #-digit NDC',
      'NDC # is already attached to RXCUI #; not to #',
    ]));
    expect(expected.snapshot.products!.find((p) => p.key === '9000001')).toMatchObject({ brand: 'Café' });
    expect(await collectStreamed(await openUsRxnorm([fileInput(conso!, 'RXNCONSO.RRF'), fileInput(sat!, 'RXNSAT.RRF')]))).toEqual(expected);
  });

  it('passes the shrink guard: lines left aside by design (other sources, other attributes) are not malformed rows', async () => {
    const release = join(dir, 'guarded');
    mkdirSync(release);
    const [conso, sat] = await writeRxnormRelease(release, 300);
    const result = await parseAndIngest(db, 'us-rxnorm', [fileInput(conso!, 'RXNCONSO.RRF'), fileInput(sat!, 'RXNSAT.RRF')], {
      strict: false, shrink: { maxDeletePercent: 20, maxSkippedPercent: 10 },
    });
    expect(result.outcome).toBe('ok');
    // Most lines are out of scope, a few are malformed: the guard weighs only the malformed ones.
    expect(result.rows!.excluded / result.rows!.read).toBeGreaterThan(0.5);
    expect(result.rows!.malformed).toBe(result.problems.length);
    expect(result.problems.length / result.rows!.read).toBeLessThan(0.1);
  });

  it('refuses the ingest and writes nothing when RXNCONSO changes or vanishes while it is read', async () => {
    const counts = await tableCounts(db);
    const original = join(dir, 'RXNCONSO.RRF');
    copyFileSync(new URL('RXNCONSO.RRF', FIXTURES), original);
    const changed = join(dir, 'changed.RRF');
    writeFileSync(changed, readFileSync(original, 'utf8').replace('153010|ENG|', '15301x|ENG|'));
    for (const [swap, reason] of [[changed, /file rejected: .*RXCUI 153010 no longer reads/], [join(dir, 'gone.RRF'), /file unreadable: .*ENOENT/]] as const) {
      let swapped = false;
      const input: InputFile = Object.defineProperty(fileInput(original, 'RXNCONSO.RRF'), 'path', { get: () => (swapped ? swap : original) });
      const result = await parseAndIngest(db, 'us-rxnorm', [input, onDisk('RXNSAT.RRF')], {
        strict: false, chunkSize: 1, onProgress: (p) => { if (p.step === 'plan') swapped = true; },
      });
      expect(result).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(reason) });
      expect(await tableCounts(db)).toEqual(counts);
    }
  });
});
