/**
 * The RxNorm adapter on real RXNCONSO rows (fixtures/registers/us-rxnorm/real, SOURCE.md
 * there): rows of other sources and term types are out of scope, never malformed; a suppressed
 * atom is excluded as such; the streamed read reports what the in-memory read does; a release
 * member of another layout is named unused, and bad input is refused.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseUsRxnorm } from '../../../workers/ingest/adapters/us-rxnorm.ts';
import { openUsRxnorm } from '../../../workers/ingest/adapters/us-rxnorm-open.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';

const REAL = new URL('../../fixtures/registers/us-rxnorm/real/', import.meta.url);
const bytes = readFileSync(new URL('RXNCONSO.RRF', REAL));
const conso = (name = 'RXNCONSO.RRF', content = bytes): InputFile => ({ name, content });

describe('us-rxnorm on real RXNCONSO rows', () => {
  const { snapshot, problems, files } = parseUsRxnorm([conso()]);

  it('counts every row: other sources and term types out of scope, the obsolete atom suppressed, the SCD without NDC excluded', () => {
    expect(problems).toEqual([]);
    // Lines 1-4 SNOMEDCT_US, 6-8 and 9, 10, 12 SY/PSN: out of scope; 11 the obsolete SCD; 5 the SCD of 2665428, which no NDC names.
    expect(files).toEqual([{
      file: 'RXNCONSO.RRF', role: 'RXNCONSO', read: 12, kept: 0, malformed: 0,
      excluded: { out_of_scope: 10, suppressed: 1, no_ndc: 1 },
    }]);
    expect(files!.every(balanced)).toBe(true);
    expect(snapshot.products).toEqual([]);
    expect(snapshot.substances).toEqual([]);
  });

  it('reports the same outcomes when streamed, and takes a dated name and a readme beside it', async () => {
    const release = [conso('RXNCONSO_10022023.RRF'), { name: 'Readme_Full_10022023.txt', content: Buffer.from('RxNorm Full Monthly Release\n') }];
    const parsed = parseUsRxnorm(release);
    expect(parsed.files?.map((f) => [f.file, f.role, f.read])).toEqual([['RXNCONSO_10022023.RRF', 'RXNCONSO', 12], ['Readme_Full_10022023.txt', 'unused', 0]]);
    const streamed = await openUsRxnorm(release);
    expect(streamed.files).toEqual(parsed.files);
    expect(streamed.problems).toEqual([]);
  });

  it('refuses an empty file, a file of another register and a release without RXNCONSO', () => {
    expect(() => parseUsRxnorm([conso('RXNCONSO.RRF', Buffer.alloc(0))])).toThrow(/needs RXNCONSO.RRF/);
    const ndcProducts = readFileSync(new URL('../../fda-ndc/real/product_trimmed.txt', REAL));
    expect(() => parseUsRxnorm([conso('RXNCONSO.RRF', ndcProducts)])).toThrow(/needs RXNCONSO.RRF/);
  });

  it('reports a file cut inside its last row as that row malformed, with its line', () => {
    const { files, problems } = parseUsRxnorm([conso('RXNCONSO.RRF', bytes.subarray(0, bytes.length - 20))]);
    expect(problems).toEqual([{ file: 'RXNCONSO.RRF', line: 12, message: '14 fields instead of 18' }]);
    expect(files![0]).toMatchObject({ read: 12, kept: 0, malformed: 1 });
  });
});
