import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import { computeLinks } from '../../workers/ingest/link-identity.ts';
import { namesOfSubstance } from '../../workers/ingest/write-links.ts';
import { SNAPSHOT_FORMAT } from '../../workers/ingest/snapshot.ts';
import type { ProductEntry, Snapshot, SourceInfo } from '../../workers/ingest/snapshot.ts';

// Real UNIIs (FDA GSRS): metformin and its hydrochloride, amlodipine and its besylate.
const METFORMIN = '9100L32L2N';
const METFORMIN_HCL = '786Z46389E';
const AMLODIPINE = '1J444QC288';
const AMLODIPINE_BESYLATE = '864V2Q084H';

function source(id: string, country: SourceInfo['country']): SourceInfo {
  return { id, name: id, country, refresh_interval_hours: 24 };
}

function product(key: string, country: ProductEntry['country'], unii: string, form: string, extra: Partial<ProductEntry> = {}): ProductEntry {
  return {
    key, country, product_name: `Metformin ${key}`, dose_form: form, identifiers: [],
    ingredients: [{ unii, strength_value: 500, strength_unit: 'mg' }],
    packs: [{ key: `${key}-1`, description: '30 tablets', units: 30, unit: 'tablet', identifiers: [] }],
    ...extra,
  };
}

/** FDA-style: real UNIIs from openFDA / the UNII list, no ATC code (the NDC directory has none). */
function fdaSnapshot(): Snapshot {
  return {
    format: SNAPSHOT_FORMAT, source: source('test-fda', 'US'),
    substances: [
      { unii: METFORMIN, name: 'METFORMIN' },
      { unii: METFORMIN_HCL, name: 'METFORMIN HYDROCHLORIDE', moiety_unii: METFORMIN },
      { unii: AMLODIPINE, name: 'AMLODIPINE' },
      // The besylate without its moiety: "amlodipine" then names two moieties.
      { unii: AMLODIPINE_BESYLATE, name: 'AMLODIPINE BESYLATE' },
    ],
    products: [product('0093-1048', 'US', METFORMIN_HCL, 'TABLET, FILM COATED', { route: 'ORAL' })],
  };
}

/** BDPM-style: substance codes, SA salt with its FT moiety, no UNII and no ATC code. */
function bdpmSnapshot(): Snapshot {
  return {
    format: SNAPSHOT_FORMAT, source: source('test-bdpm', 'FR'),
    substances: [
      { unii: 'bdpm:02202', name: 'CHLORHYDRATE DE METFORMINE', moiety_unii: 'bdpm:04375', provisional: true },
      { unii: 'bdpm:04375', name: 'METFORMINE', provisional: true },
      { unii: 'bdpm:38427', name: "MALÉATE D'AMLODIPINE", provisional: true },
    ],
    products: [
      product('60234100', 'FR', 'bdpm:02202', 'comprimé pelliculé', { route: 'orale' }),
      product('61234567', 'FR', 'bdpm:38427', 'comprimé', { product_name: 'AMLODIPINE MALEATE 5 mg' }),
    ],
  };
}

/** SL-style: Latin names as provisional keys; the SL gives the product's ATC code. */
function slSnapshot(): Snapshot {
  return {
    format: SNAPSHOT_FORMAT, source: source('test-sl', 'CH'),
    substances: [{ unii: 'name:METFORMINI HYDROCHLORIDUM', name: 'Metformini hydrochloridum', names: { la: 'Metformini hydrochloridum' }, provisional: true }],
    products: [product('57613', 'CH', 'name:METFORMINI HYDROCHLORIDUM', 'Filmtabl', { atc_code: 'A10BA02' })],
  };
}

interface Row { country: string; id: string; substance_signature: string | null; atc_code: string | null; atc_code_linked: boolean }

describe('computeLinks', () => {
  it('links by full name, then by moiety key, and leaves two moieties unlinked', () => {
    const subs = [
      { unii: METFORMIN_HCL, name: 'METFORMIN HYDROCHLORIDE', names: null },
      { unii: 'bdpm:1', name: 'CHLORHYDRATE DE METFORMINE', names: null },
      { unii: 'bdpm:2', name: 'METFORMINE', names: null },
      { unii: 'name:X', name: 'Amlodipinum', names: { la: 'Amlodipinum' } },
    ];
    const names = subs.flatMap(namesOfSubstance);
    const evidence = [
      { unii: METFORMIN_HCL, name_key: 'metformin', full_key: 'metformin hydrochloride', moiety: METFORMIN },
      { unii: AMLODIPINE, name_key: 'amlodipin', full_key: 'amlodipin', moiety: AMLODIPINE },
      { unii: AMLODIPINE_BESYLATE, name_key: 'amlodipin', full_key: 'amlodipin besilate', moiety: AMLODIPINE_BESYLATE },
    ];
    const keys = subs.map((s) => ({ unii: s.unii, name: s.name, provisional: s.unii !== METFORMIN_HCL, moiety: s.unii === METFORMIN_HCL ? METFORMIN : s.unii }));
    const links = new Map(computeLinks(keys, names, evidence).map((l) => [l.unii, l]));
    expect(links.get(METFORMIN_HCL)).toMatchObject({ identity: METFORMIN, basis: 'unii', confidence: 1 });
    expect(links.get('bdpm:1')).toMatchObject({ identity: METFORMIN, basis: 'inn_name', confidence: 0.9, evidence: [METFORMIN_HCL] });
    expect(links.get('bdpm:2')).toMatchObject({ identity: METFORMIN, basis: 'salt_folded', confidence: 0.8 });
    // The full name "amlodipin" matches the moiety alone: linked exactly, not ambiguous.
    expect(links.get('name:X')).toMatchObject({ identity: AMLODIPINE, basis: 'inn_name' });
  });
});

describe('substance identity across registers', () => {
  let t: TestApp;
  let key: string;
  const products = async () => (await t.db.query<Row>(
    'SELECT country, id, substance_signature, atc_code, atc_code_linked FROM products ORDER BY country, natural_key')).rows;

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  it('links BDPM and SL names on one INN name key before any UNII is known', async () => {
    await ingestSnapshot(t.db, bdpmSnapshot());
    await ingestSnapshot(t.db, slSnapshot());
    const rows = await products();
    const fr = rows.find((r) => r.country === 'FR' && r.substance_signature === 'inn:metformin');
    const ch = rows.find((r) => r.country === 'CH')!;
    expect(ch).toMatchObject({ substance_signature: 'inn:metformin', atc_code: 'A10BA02', atc_code_linked: false });
    // The French product takes the ATC code of the Swiss one with the same medicine.
    expect(fr).toMatchObject({ atc_code: 'A10BA02', atc_code_linked: true });
  });

  it('resolves a name in any register\'s language through its normalised INN name', async () => {
    const res = await t.app.inject({ url: '/v1/markets/overview?q=metformine', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ resolved: { matched_by: string; atc_codes: string[] }; markets: Array<{ country: string }> }>();
    expect(body.resolved).toMatchObject({ matched_by: 'substance_name', atc_codes: ['A10BA02'] });
    expect(body.markets.map((m) => m.country)).toEqual(['CH', 'FR']);
    const latin = (await t.app.inject({ url: '/v1/markets/overview?q=Metformin%20HCl', headers: bearer(key) })).json<{ resolved: { matched_by: string } }>();
    expect(latin.resolved.matched_by).toBe('inn_name');
  });

  it('relinks every register to the real UNII once a source gives one, in the same ingest', async () => {
    await ingestSnapshot(t.db, fdaSnapshot());
    const metformin = (await products()).filter((r) => r.substance_signature === METFORMIN);
    expect(metformin.map((r) => r.country)).toEqual(['CH', 'FR', 'US']);
    expect(metformin.map((r) => r.atc_code)).toEqual(['A10BA02', 'A10BA02', 'A10BA02']);
    const { rows } = await t.db.query<{ unii: string; identity: string; basis: string; confidence: string }>(
      `SELECT unii, identity, basis, confidence FROM substance_links WHERE unii = ANY($1) ORDER BY unii`,
      [['bdpm:02202', 'bdpm:04375', 'name:METFORMINI HYDROCHLORIDUM', METFORMIN_HCL]]);
    expect(rows.map((r) => [r.unii, r.identity, r.basis, Number(r.confidence)])).toEqual([
      [METFORMIN_HCL, METFORMIN, 'unii', 1],
      ['bdpm:02202', METFORMIN, 'inn_name', 0.9],
      ['bdpm:04375', METFORMIN, 'inn_name', 0.9],
      ['name:METFORMINI HYDROCHLORIDUM', METFORMIN, 'inn_name', 0.9],
    ]);
  });

  it('lists CH, FR and US as equivalents over HTTP', async () => {
    const fr = (await products()).find((r) => r.country === 'FR' && r.substance_signature === METFORMIN)!;
    const res = await t.app.inject({ url: `/v1/drugs/${fr.id}/equivalents`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ basis: string; same_substance: Array<{ country: string }>; same_medicine: Array<{ country: string }> }>();
    expect(body.basis).toBe('identity');
    expect(body.same_substance.map((g) => g.country)).toEqual(['CH', 'US']);
    // 500 mg film-coated oral tablet in all three registers' words.
    expect(body.same_medicine.map((g) => g.country)).toEqual(['CH', 'US']);
  });

  it('shows CH, FR and US in the markets overview for "metformin"', async () => {
    const res = await t.app.inject({ url: '/v1/markets/overview?q=metformin', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ resolved: { atc_codes: string[] }; markets: Array<{ country: string; packs: number }> }>();
    expect(body.resolved.atc_codes).toEqual(['A10BA02']);
    expect(body.markets.map((m) => m.country)).toEqual(['CH', 'FR', 'US']);
  });

  it('exposes the link with basis and confidence on the substance record', async () => {
    const res = await t.app.inject({ url: `/v1/substances/${encodeURIComponent('name:METFORMINI HYDROCHLORIDUM')}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ identity: Record<string, unknown>; links: Array<{ key: string; source: string; basis: string; confidence: number }> }>();
    expect(body.identity).toMatchObject({ key: METFORMIN, status: 'linked', basis: 'inn_name', confidence: 0.9, normalised_name: 'metformin',
      names: ['Metformini hydrochloridum'], evidence: [METFORMIN_HCL] });
    expect(body.links.map((l) => [l.source, l.key, l.basis])).toEqual([
      ['test-bdpm', 'bdpm:02202', 'inn_name'], ['test-bdpm', 'bdpm:04375', 'inn_name'],
      ['test-fda', METFORMIN_HCL, 'unii'], ['test-fda', METFORMIN, 'unii'], ['test-sl', 'name:METFORMINI HYDROCHLORIDUM', 'inn_name'],
    ]);
  });

  it('counts every register\'s products on the moiety\'s substance view', async () => {
    for (const unii of [METFORMIN, 'bdpm:02202']) {
      const body = (await t.app.inject({ url: `/v1/substances/${unii}`, headers: bearer(key) })).json();
      expect(body).toMatchObject({ drug_count: 3, markets: ['CH', 'FR', 'US'] });
    }
  });

  it('leaves a name that points to two UNIIs unlinked and reports it', async () => {
    const { rows } = await t.db.query<{ identity: string | null; candidates: string[] }>(
      "SELECT identity, candidates FROM substance_links WHERE unii = 'bdpm:38427'");
    expect(rows).toEqual([{ identity: null, candidates: [AMLODIPINE, AMLODIPINE_BESYLATE] }]);
    const amlodipine = (await products()).find((r) => r.country === 'FR' && r.substance_signature !== METFORMIN)!;
    expect(amlodipine).toMatchObject({ substance_signature: 'bdpm:38427', atc_code: null, atc_code_linked: false });
    const res = await t.app.inject({ url: '/v1/substances/bdpm:38427', headers: bearer(key) });
    expect(res.json()).toMatchObject({ identity: { key: null, status: 'ambiguous', candidates: [AMLODIPINE, AMLODIPINE_BESYLATE] }, links: [] });
  });

  it('gives a product without ATC code the ATC code of its linked substance from another source', async () => {
    await ingestSnapshot(t.db, {
      format: SNAPSHOT_FORMAT, source: source('test-reference', null),
      substances: [{ unii: 'WK2XYI10QM', name: 'Ibuprofen', names: { inn: 'Ibuprofen', fr: 'ibuprofène' }, atc_codes: ['M01AE01'] }],
    });
    await ingestSnapshot(t.db, {
      format: SNAPSHOT_FORMAT, source: source('test-bdpm-2', 'FR'),
      substances: [{ unii: 'bdpm:01245', name: 'IBUPROFÈNE', provisional: true }],
      products: [product('67788899', 'FR', 'bdpm:01245', 'comprimé enrobé', { product_name: 'IBUPROFENE 400 mg' })],
    });
    const { rows } = await t.db.query<Row>("SELECT substance_signature, atc_code, atc_code_linked FROM products WHERE natural_key = '67788899'");
    expect(rows).toEqual([{ substance_signature: 'WK2XYI10QM', atc_code: 'M01AE01', atc_code_linked: true }]);
  });

  it('changes nothing when the same snapshots are ingested again', async () => {
    const before = await products();
    for (const snapshot of [fdaSnapshot(), bdpmSnapshot(), slSnapshot()]) {
      // Re-ingesting an unchanged register writes no change and leaves signatures and linked ATC codes alone.
      const report = await ingestSnapshot(t.db, snapshot);
      expect(report.changes).toBe(0);
    }
    expect(await products()).toEqual(before);
  });
});
