import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonSnapshot } from '../../workers/ingest/adapters/json-snapshot.ts';
import { ingestSnapshots } from '../../workers/ingest/engine.ts';
import { SNAPSHOT_FORMAT } from '../../workers/ingest/snapshot.ts';
import type { Snapshot } from '../../workers/ingest/snapshot.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

function snapshot(body: object): Snapshot {
  const { snapshot: parsed, problems } = parseJsonSnapshot('s.json', Buffer.from(JSON.stringify({ format: SNAPSHOT_FORMAT, ...body })));
  expect(problems).toEqual([]);
  return parsed;
}

/** The EMA report's record of a centrally authorised vaccine, and a French pack of it carrying the pack-level EU number. */
const EMA = snapshot({
  source: { id: 'eu-ema', name: 'EMA', country: null, refresh_interval_hours: 168 },
  products: [{
    key: 'EMEA/H/C/004336', country: 'EU', product_name: 'Shingrix', authorisation_status: 'authorised', authorised_on: '2018-03-21',
    identifiers: [{ system: 'ema_procedure', code: 'EMEA/H/C/004336' }, { system: 'eu_number', code: 'EU/1/18/1272' }], ingredients: [], packs: [],
  }],
});
const FR = snapshot({
  source: { id: 'test-fr', name: 'Test FR', country: 'FR', refresh_interval_hours: 24 },
  products: [
    {
      key: '62345678', country: 'FR', product_name: 'SHINGRIX, poudre et suspension pour suspension injectable',
      identifiers: [{ system: 'cis', code: '62345678' }, { system: 'eu_number', code: 'EU/1/18/1272/001' }], ingredients: [],
      packs: [{ key: '3400930111116', description: '1 flacon', identifiers: [{ system: 'cip13', code: '3400930111116' }] }],
    },
    {
      key: '62345679', country: 'FR', product_name: 'AUTRE VACCIN', identifiers: [{ system: 'eu_number', code: 'EU/1/18/1273/001' }], ingredients: [],
      packs: [{ key: '3400930111123', description: '1 flacon', identifiers: [{ system: 'cip13', code: '3400930111123' }] }],
    },
  ],
});

describe('the EU central authorisation on a national drug record', () => {
  let t: TestApp;
  let key: string;
  const lookup = (cip13: string) => t.app.inject({ url: `/v1/drugs/lookup?system=cip13&code=${cip13}`, headers: bearer(key) });

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    await ingestSnapshots(t.db, [EMA, FR]);
  });
  afterAll(() => t.close());

  it('links a national pack to the EMA record by the EU number, and lists the EMA as a source', async () => {
    const res = await lookup('3400930111116');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.central_authorisation).toEqual({
      drug_id: expect.any(String), product_name: 'Shingrix', eu_number: 'EU/1/18/1272', procedure_number: 'EMEA/H/C/004336',
      status: 'authorised', authorised_on: '2018-03-21', basis: 'eu_number',
    });
    expect(body._meta.sources.map((s: { id: string }) => s.id).sort()).toEqual(['eu-ema', 'test-fr']);
    const ema = await t.app.inject({ url: `/v1/drugs/${body.central_authorisation.drug_id}`, headers: bearer(key) });
    expect(ema.json()).toMatchObject({ country: 'EU', product_name: 'Shingrix', central_authorisation: null });
  });

  it('costs one statement more than any record for the link: quota, the record with its national rows, the EMA candidates', async () => {
    await lookup('3400930111116'); // warm the key cache
    const before = t.db.roundTrips;
    expect((await lookup('3400930111116')).statusCode).toBe(200);
    expect(t.db.roundTrips - before).toBe(3);
  });

  it('finds products by EU number (the national one and the EMA record) and by CIS in the typeahead', async () => {
    const search = async (q: string) => (await t.app.inject({ url: `/v1/drugs?q=${encodeURIComponent(q)}&country=ALL`, headers: bearer(key) })).json();
    const byEu = await search('EU/1/18/1272/001');
    expect(byEu.matched_by).toBe('eu_number');
    expect(byEu.results.map((r: { country: string }) => r.country).sort()).toEqual(['EU', 'FR']);
    const byCis = await search('62345678');
    expect(byCis).toMatchObject({ matched_by: 'cis', results: [{ product_name: 'SHINGRIX, poudre et suspension pour suspension injectable' }] });
  });

  it('links nothing when no EMA record has the number', async () => {
    const body = (await lookup('3400930111123')).json();
    expect(body.central_authorisation).toBeNull();
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toEqual(['test-fr']);
  });
});
