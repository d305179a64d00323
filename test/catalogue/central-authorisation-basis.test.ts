/**
 * National records linked to the EMA record of the current medicines report, which has no EU
 * numbers: a BDPM fixture of centrally authorised medicines (EU numbers in the register's own
 * column) and the EMA report fixture, each through its own adapter and the ingest engine.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../workers/ingest/adapters/index.ts';
import { ingestSnapshots } from '../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

const DIR = new URL('../fixtures/registers/eu-ema/', import.meta.url);
const file = (name: string) => ({ name: name.split('/').pop()!, content: readFileSync(new URL(name, DIR)) });

describe('central authorisation of a BDPM record against the current EMA report', () => {
  let t: TestApp;
  let key: string;
  const central = async (cip13: string) => {
    const res = await t.app.inject({ url: `/v1/drugs/lookup?system=cip13&code=${cip13}`, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().central_authorisation;
  };

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const ema = await findAdapter('eu-ema')!.parse([file('medicines-output-medicines-report_en.csv')]);
    const bdpm = await findAdapter('fr-bdpm')!.parse(['bdpm/CIS_bdpm.txt', 'bdpm/CIS_CIP_bdpm.txt', 'bdpm/CIS_COMPO_bdpm.txt'].map(file));
    expect(bdpm.problems).toEqual([]);
    await ingestSnapshots(t.db, [ema.snapshot, bdpm.snapshot]);
  });
  afterAll(() => t.close());

  it('links ABILIFY by brand, holder (legal form dropped) and substance, with the national EU number and the basis', async () => {
    expect(await central('3400930000014')).toEqual({
      drug_id: expect.any(String), product_name: 'Abilify', eu_number: 'EU/1/04/276', procedure_number: 'EMEA/H/C/000471',
      status: 'authorised', authorised_on: '2004-06-04', basis: 'name_holder_substance',
    });
  });

  it('reads the BDPM holder without its bracketed country, a salt by its moiety and a product-level EU number (XARELTO, TRUVADA)', async () => {
    expect(await central('3400930000021')).toMatchObject({ product_name: 'Xarelto', procedure_number: 'EMEA/H/C/000944', basis: 'name_holder_substance' });
    expect(await central('3400930000038')).toMatchObject({ product_name: 'Truvada', procedure_number: 'EMEA/H/C/000594', eu_number: 'EU/1/04/305' });
  });

  it('links nothing when two EMA records share name, holder and substance, or when the national record has no EU number', async () => {
    expect(await central('3400930000045')).toBeNull();
    expect(await central('3400930000052')).toBeNull();
  });
});
