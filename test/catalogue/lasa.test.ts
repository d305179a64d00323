import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { lasaRefreshSettled, refreshLasa, staleLasaCountries } from '../../resolvers/catalogue/lasa-refresh.ts';
import { LasaFileError, loadLasaText } from '../../workers/ingest/lasa-file.ts';
import { CURATED_CSV, LASA_IDS, seedLasaCatalogue } from './lasa-helpers.ts';

interface Entry { name: string; drug_id: string; reasons: string[]; score: number; spelling: number | null; phonetic: number | null; curated: Array<{ source: string; reason: string }> }
interface Row { id: string; product_name: string; lasa?: Entry[] }

describe('GET /v1/drugs?include=lasa (look-alike / sound-alike names)', () => {
  let t: TestApp;
  let key: string;
  const search = async (query: string) => {
    const res = await t.app.inject({ url: `/v1/drugs?${query}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    return res.json() as { results: Row[] };
  };
  const rowOf = (body: { results: Row[] }, id: string) => body.results.find((r) => r.id === id)!;

  beforeAll(async () => {
    t = await startTestApp();
    await seedLasaCatalogue(t.db);
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(async () => {
    await lasaRefreshSettled(t.db);
    await t.close();
  });

  it('refreshes stale pairs in the background after the first search that asks, then lists them', async () => {
    expect(await staleLasaCountries(t.db)).toEqual(['CH', 'US']);
    const first = await search('q=vinblastine&country=US&include=lasa');
    expect(rowOf(first, LASA_IDS.vinblastineUs).lasa).toEqual([]);
    await lasaRefreshSettled(t.db);
    expect(await staleLasaCountries(t.db)).toEqual(['CH']);
    const again = await search('q=vinblastine&country=US&include=lasa');
    expect(rowOf(again, LASA_IDS.vinblastineUs).lasa).toEqual([
      { name: 'Vincristine', drug_id: LASA_IDS.vincristineUs, reasons: ['spelling'], score: 0.727, spelling: 0.727, phonetic: null, curated: [] },
    ]);
  });

  it('gives each row its confusable names with their reasons, closest first, and nothing without include=lasa', async () => {
    await refreshLasa(t.db);
    const body = await search('q=doxil&country=US&include=lasa');
    expect(rowOf(body, LASA_IDS.doxilUs).lasa).toEqual([
      { name: 'Taxol', drug_id: LASA_IDS.taxolUs, reasons: ['phonetic'], score: 1, spelling: null, phonetic: 1, curated: [] },
    ]);
    const prednisone = rowOf(await search('q=prednisone&country=US&include=lasa'), LASA_IDS.prednisoneUs);
    expect(prednisone.lasa).toEqual([
      { name: 'Prednisolone', drug_id: LASA_IDS.prednisoloneUs, reasons: ['spelling', 'phonetic'], score: 0.857, spelling: 0.833, phonetic: 0.857, curated: [] },
    ]);
    const hydroxyzine = rowOf(await search('q=hydroxyzine&country=US&include=lasa'), LASA_IDS.hydroxyzineUs);
    expect(hydroxyzine.lasa!.map((e) => [e.name, e.drug_id, e.reasons])).toEqual([['Hydralazine', LASA_IDS.hydralazineUs, ['spelling']]]);
    const plain = await search('q=doxil&country=US');
    expect(rowOf(plain, LASA_IDS.doxilUs)).not.toHaveProperty('lasa');
  });

  it('answers an empty list for a name without neighbours, and never reaches into another country', async () => {
    expect(rowOf(await search('q=quviviq&country=US&include=lasa'), LASA_IDS.quviviqUs).lasa).toEqual([]);
    // Celebrex has neighbours only in the US catalogue (Cerebyx); the Swiss row has none.
    expect(rowOf(await search('q=celebrex&country=CH&include=lasa'), LASA_IDS.celebrexCh).lasa).toEqual([]);
    const us = rowOf(await search('q=celebrex&country=US&include=lasa'), LASA_IDS.celebrexUs);
    expect(us.lasa!.map((e) => e.name)).toEqual(['Cerebyx']);
  });

  it('leaves out another brand of the same substance, and a withdrawn product is never the representative', async () => {
    const amlodipine = rowOf(await search('q=amlodipine&country=US&include=lasa'), LASA_IDS.amlodipineUs);
    expect(amlodipine.lasa).toEqual([]);
    const stored = await t.db.query(`SELECT 1 FROM lasa_pairs WHERE country = 'US' AND key = 'amlodipine' AND other = 'amlodipin'`);
    expect(stored.rowCount).toBe(1);
    const vinblastine = rowOf(await search('q=vinblastine&country=US&include=lasa'), LASA_IDS.vinblastineUs);
    expect(vinblastine.lasa!.map((e) => e.drug_id)).toEqual([LASA_IDS.vincristineUs]);
  });

  it('loads a curated list, reporting malformed rows by line, and shows its pairs with source and reason', async () => {
    const report = await loadLasaText(t.db, 'list.csv', CURATED_CSV);
    expect(report).toMatchObject({ read: 8, sources: ['TEST-LIST'], inserted: 2, updated: 0, removed: 0, unchanged: 0 });
    expect(report.problems.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual([
      'list.csv:5: name_a and name_b must both be given',
      'list.csv:6: "Depakote" and "Depakote ER" share their first word; names are compared by it',
      'list.csv:7: repeats the pair Celebrex / Zyprexa of TEST-LIST',
      'list.csv:8: "5-FU" has no word of three letters or more to compare',
      'list.csv:9: expected 4 fields, found 2',
      'list.csv:10: source must be given (the list the pair comes from)',
    ]);
    const celebrex = rowOf(await search('q=celebrex&country=US&include=lasa'), LASA_IDS.celebrexUs);
    expect(celebrex.lasa!.map((e) => [e.name, e.reasons, e.score])).toEqual([['Zyprexa', ['curated'], 1], ['Cerebyx', ['spelling'], 0.625]]);
    expect(celebrex.lasa![0]!.curated).toEqual([{ source: 'TEST-LIST', reason: 'look-alike on handwritten orders' }]);
    // A curated pair stays even when both names share the substance (immediate- vs extended-release).
    const oxy = rowOf(await search('q=oxycontin&country=US&include=lasa'), LASA_IDS.oxycontinUs);
    expect(oxy.lasa!.map((e) => [e.name, e.drug_id, e.reasons])).toEqual([['Oxycodone', LASA_IDS.oxycodoneUs, ['curated', 'phonetic']]]);
  });

  it('reloads idempotently, and a refused file changes nothing', async () => {
    const again = await loadLasaText(t.db, 'list.csv', CURATED_CSV);
    expect(again).toMatchObject({ inserted: 0, updated: 0, removed: 0, unchanged: 2 });
    const before = (await t.db.query('SELECT source, key_a, key_b, reason FROM lasa_names ORDER BY 1, 2, 3')).rows;
    await expect(loadLasaText(t.db, 'bad.csv', 'a,b\nCelebrex,Taxol\n')).rejects.toThrow(LasaFileError);
    await expect(loadLasaText(t.db, 'bad.csv', 'name_a,name_b,source,reason\n,Taxol,TEST-LIST,x\n')).rejects.toThrow(/no usable rows/);
    expect((await t.db.query('SELECT source, key_a, key_b, reason FROM lasa_names ORDER BY 1, 2, 3')).rows).toEqual(before);
    // A new version of the list replaces that list's pairs.
    const next = await loadLasaText(t.db, 'list2.csv', 'name_a,name_b,source,reason\nCelebrex,Zyprexa,TEST-LIST,sound-alike\n');
    expect(next).toMatchObject({ inserted: 0, updated: 1, removed: 1, unchanged: 0 });
  });

  it('costs one extra round trip per page whatever its size', async () => {
    await refreshLasa(t.db);
    await lasaRefreshSettled(t.db);
    const roundTrips = async (query: string) => {
      await search(query); // warm the key cache so auth costs the same each time
      const before = t.db.roundTrips;
      const body = await search(query);
      return { trips: t.db.roundTrips - before, rows: body.results.length };
    };
    // Each against the same search without LASA: a name search's own trips depend on whether
    // the names starting with q fill the page (2) or not (3).
    const plain = await roundTrips('q=hydro&country=US&limit=1');
    const small = await roundTrips('q=hydro&country=US&limit=1&include=lasa');
    const largePlain = await roundTrips('q=ine&country=US&limit=50');
    const large = await roundTrips('q=ine&country=US&limit=50&include=lasa');
    expect(large.rows).toBeGreaterThan(4);
    expect(small.trips).toBe(plain.trips + 1);
    expect(large.trips).toBe(largePlain.trips + 1);
  });

  it('refuses an unknown include with 422 and documents the field in OpenAPI', async () => {
    const res = await t.app.inject({ url: '/v1/drugs?q=doxil&include=everything', headers: bearer(key) });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('validation');
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    const op = doc.paths['/v1/drugs'].get;
    expect(op.parameters.find((p: { name: string }) => p.name === 'include').schema.enum).toEqual(['lasa']);
    const row = op.responses['200'].content['application/json'].schema.properties.results.items;
    expect(row.properties.lasa.items.properties.reasons.items.enum).toEqual(['curated', 'spelling', 'phonetic']);
    // spelling and phonetic are always present, null below their thresholds.
    expect(row.properties.lasa.items.required).toEqual(['name', 'drug_id', 'reasons', 'score', 'spelling', 'phonetic', 'curated']);
  });
});
