/**
 * us-fda-shortages on a real openFDA drug/shortages download (test/fixtures/registers/
 * us-fda-shortages/real, see SOURCE.md there): ten of the 1,640 records of the download of
 * 2026-06-19, whole and in their order. Counts and values are checked against those bytes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseUsFdaShortages } from '../../../workers/ingest/adapters/us-fda-shortages.ts';

const NAME = 'drug-shortages-0001-of-0001.json';
const content = readFileSync(new URL(`../../fixtures/registers/us-fda-shortages/real/${NAME}`, import.meta.url));

describe('us-fda-shortages on a real openFDA download (2026-06-19)', async () => {
  const parsed = await parseUsFdaShortages([{ name: NAME, content }]);
  const row = (code: string) => parsed.rows.find((r) => r.code === code)!;

  it('keeps one row per NDC and excludes the older record of an NDC named twice as superseded', () => {
    expect(parsed.files).toEqual([{ file: NAME, role: 'shortages', read: 10, kept: 9, malformed: 0, excluded: { superseded: 1 } }]);
    expect(parsed.problems).toEqual([]);
    expect(parsed.partial).toBe(false);
    expect(parsed.rows.map((r) => r.code)).toEqual([
      '00409669502', '62135048690', '63323085074', '61570007401', '16729008110', '00071053523', '00143953101', '00555097102', '63323014210',
    ]);
  });

  it('maps status and availability as the FDA writes them, including its own spellings', () => {
    expect(row('00409669502')).toMatchObject({ status: 'limited', since: '2022-10-05', reason: 'Other' });
    expect(row('62135048690')).toMatchObject({ status: 'available', since: '2026-06-01', reason: null });
    // `Avaliable` and `Unavailable.` are the FDA's spellings in these records.
    expect(row('00555097102')).toMatchObject({ status: 'available', record: expect.objectContaining({ availability: 'Avaliable' }) });
    expect(row('63323014210')).toMatchObject({ status: 'unavailable', reason: 'Demand increase for the drug', record: expect.objectContaining({ availability: 'Unavailable.' }) });
    // A current shortage "temporally on backorder" is limited.
    expect(row('00143953101')).toMatchObject({ status: 'limited', since: '2026-06-12' });
  });

  it('dates a discontinuation from its discontinued_date and a resolved shortage from its last update, with or without an openfda block', () => {
    expect(row('63323085074')).toMatchObject({ status: 'discontinued', since: '2025-10-29' });
    expect(row('61570007401')).toMatchObject({ status: 'discontinued', since: '2025-07-29' });
    expect(row('16729008110')).toMatchObject({ status: 'available', since: '2026-02-11', record: expect.objectContaining({ status: 'Resolved' }) });
  });

  it('states an NDC named by two records by the one updated last (Quinapril 0071-0535-23: to be discontinued in 10/2025, a current shortage updated 06/2026)', () => {
    expect(row('00071053523')).toMatchObject({
      status: 'unavailable', since: '2023-01-19', record: expect.objectContaining({ status: 'Current', availability: 'Unavailable', update_date: '2026-06-09' }),
    });
    // It keeps the place where the NDC first appears.
    expect(parsed.rows.findIndex((r) => r.code === '00071053523')).toBe(5);
  });
});
