/**
 * Every adapter accounts for every row the same way (workers/ingest/row-outcome.ts): on each
 * register's fixtures, each file report states its malformed rows and its exclusions by reason,
 * `read = kept + malformed + excluded`, and each malformed row has a problem reported for that
 * file (a problem may also concern a part of a kept row: a pack of a kept preparation). A streamed adapter's `open` reports exactly what its `parse` does.
 */
import { describe, expect, it } from 'vitest';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';
import { fixtureInputs } from '../../helpers/fixture-catalogue.ts';

describe('row outcomes of every adapter', () => {
  for (const input of fixtureInputs()) {
    it(`${input.adapter}: every row kept, malformed with its problem, or excluded by reason`, async () => {
      const adapter = findAdapter(input.adapter)!;
      const parsed = await adapter.parse(await input.files());
      expect(parsed.files?.length).toBeGreaterThan(0);
      for (const report of parsed.files!) {
        expect(balanced(report), `${report.file}: ${JSON.stringify(report)}`).toBe(true);
        expect(parsed.problems.filter((p) => p.file === report.file).length, report.file).toBeGreaterThanOrEqual(report.malformed);
      }
      if (adapter.open) {
        const opened = await adapter.open(await input.files());
        expect(opened.files).toEqual(parsed.files);
        expect(opened.problems).toEqual(parsed.problems);
      }
    });
  }
});
