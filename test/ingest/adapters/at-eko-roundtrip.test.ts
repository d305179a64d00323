/**
 * Round trip of the Erstattungskodex fixture: adapter → ingest engine (what `drugref ingest
 * at-eko` runs) → the HTTP answers an Austrian pharmacist would check. The Austrian PZN is a
 * search-only system (no /v1/drugs/lookup system exists for it), so a PZN is asked through `q`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const DIR = new URL('../../fixtures/registers/at-eko/', import.meta.url);

interface Result { id: string; product_name: string; country: string }

describe('at-eko round trip: EKO data carrier → ingest → /v1/drugs?q=, /v1/drugs/{id}', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });
  const search = async (q: string): Promise<Result[]> => {
    const res = await get(`/v1/drugs?q=${encodeURIComponent(q)}&country=AT`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results;
  };

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const files = readdirSync(DIR).filter((n) => !n.startsWith('wrong') && n.includes('.')).map((name) => ({ name, content: readFileSync(new URL(name, DIR)) }));
    const { snapshot } = await findAdapter('at-eko')!.parse(files);
    const report = await ingestSnapshot(t.db, snapshot);
    expect(report.tables).toMatchObject({ products: { insert: 7 }, packs: { insert: 8 } });
  }, 120_000);
  afterAll(() => t.close());

  it('finds a pack by its Austrian PZN through q, and answers its record with price, box and substances', async () => {
    const results = await search('2360027');
    expect(results).toEqual([expect.objectContaining({ product_name: 'Metformin Genericon 1000 mg Filmtabl.', country: 'AT' })]);
    const res = await get(`/v1/drugs/${results[0]!.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ atc_code: 'A10BA02', marketing_status: 'active', attributes: { at_eko_box: 'grün' } });
    expect(body.identifiers).toContainEqual(expect.objectContaining({ system: 'at_zulassungsnummer', code: '135270' }));
    expect(body.ingredients).toEqual([expect.objectContaining({ name: 'Metformin', strength_value: 1000, strength_unit: 'mg' })]);
    const pack = body.packs.find((p: { identifiers: Array<{ code: string }> }) => p.identifiers.some((i) => i.code === '2360027'));
    expect(pack).toMatchObject({ units: 60, dispensing_category: 'rezeptpflichtig' });
    expect(pack.prices).toEqual([expect.objectContaining({ amount: 5.35, currency: 'EUR', kind: 'reimbursed' })]);
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toContain('at-eko');
  });

  it('finds products by name and by German substance name', async () => {
    expect((await search('Eliquis')).map((r) => r.product_name)).toEqual(['Eliquis 5 mg Filmtabl.']);
    expect((await search('Semaglutid')).map((r) => r.product_name)).toContain('Ozempic 1 mg Inj.lsg. Fertigpen');
  });

  it('keeps the yellow box rule text on the record', async () => {
    const [ozempic] = await search('Ozempic');
    const res = await get(`/v1/drugs/${ozempic!.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().attributes).toMatchObject({ at_eko_box: 'gelb', at_eko_kassenzeichen: 'RE1', at_eko_langzeitbewilligung: 'L12' });
    expect(res.json().packs[0]).toMatchObject({ description: '1 St, 3 ml', units: 1, unit: 'Stück', prices: [expect.objectContaining({ amount: 115.75 })] });
  });
});
