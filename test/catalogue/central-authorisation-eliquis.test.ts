/**
 * The central authorisation link on real files: the BDPM's two ELIQUIS medicines (CIS
 * 69340279 and 61902218, EU/1/11/691 in the register's own column) and the EMA's EPAR report row
 * of Eliquis (EMEA/H/C/002148), each read by its own adapter and ingested into one catalogue
 * (fixtures/registers/eu-ema/real-eliquis, SOURCE.md there).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../workers/ingest/adapters/index.ts';
import { ingestSnapshots } from '../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

const DIR = new URL('../fixtures/registers/eu-ema/real-eliquis/', import.meta.url);
const file = (name: string) => ({ name: name.split('/').pop()!, content: readFileSync(new URL(name, DIR)) });

describe('a BDPM ELIQUIS links to the EMA EPAR of Eliquis in a catalogue of both registers', () => {
  let t: TestApp;
  let key: string;
  const lookup = async (cip13: string) => {
    const res = await t.app.inject({ url: `/v1/drugs/lookup?system=cip13&code=${cip13}`, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const ema = await findAdapter('eu-ema')!.parse([file('Medicines_output_european_public_assessment_reports.xlsx')]);
    expect(ema.files).toEqual([expect.objectContaining({ read: 1, kept: 1, malformed: 0 })]);
    const bdpm = await findAdapter('fr-bdpm')!.parse(['bdpm/CIS_bdpm.txt', 'bdpm/CIS_CIP_bdpm.txt', 'bdpm/CIS_COMPO_bdpm.txt'].map(file));
    expect(bdpm.problems).toEqual([]);
    await ingestSnapshots(t.db, [ema.snapshot, bdpm.snapshot]);
  });
  afterAll(() => t.close());

  it('links both strengths to EMEA/H/C/002148 by brand, holder (bracketed country dropped) and substance, with the national EU number', async () => {
    for (const cip13 of ['3400941945441', '3400926784102']) {
      const body = await lookup(cip13);
      expect(body.central_authorisation).toEqual({
        drug_id: expect.any(String), product_name: 'Eliquis', eu_number: 'EU/1/11/691', procedure_number: 'EMEA/H/C/002148',
        status: 'authorised', authorised_on: '2011-05-18', basis: 'name_holder_substance',
      });
      expect(body._meta.sources.map((s: { id: string }) => s.id).sort()).toEqual(['eu-ema', 'fr-bdpm']);
    }
  });
});
