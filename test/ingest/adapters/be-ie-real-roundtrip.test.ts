/**
 * Real Belgian and Irish documents through the ingest engine to the HTTP answer: DICS answers
 * and single HPRA lists are partial documents, so each updates what it holds and deletes
 * nothing else; the prices, CNKs, licence numbers, ATC codes and withdrawal dates the real
 * files carry reach /v1/drugs.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBeSam } from '../../../workers/ingest/adapters/be-sam.ts';
import { parseIeHpra } from '../../../workers/ingest/adapters/ie-hpra.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const fixture = (path: string) => ({ name: path.split('/').pop()!, content: readFileSync(new URL(`../../fixtures/registers/${path}`, import.meta.url)) });
const DICS = ['findamp-anyNamePart-response.xml', 'findamp-cnk-response.xml', 'findcompany-actorNr-response.xml', 'findvmp-vmpCode-response.xml']
  .map((name) => fixture(`be-sam/real/${name}`));

describe('real BE and IE documents → ingest → /v1/drugs', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });
  const lookup = async (system: string, code: string) => {
    const res = await get(`/v1/drugs/lookup?system=${system}&code=${encodeURIComponent(code)}`);
    expect(res.statusCode, `${system} ${code}: ${res.body}`).toBe(200);
    return res.json();
  };
  const count = async (sql: string, source: string) => (await t.db.query<{ n: number }>(sql, [source])).rows[0]!.n;
  const products = (source: string) => count('SELECT count(*)::int AS n FROM products WHERE source = $1', source);
  const deletes = (source: string) => count(`SELECT count(*)::int AS n FROM changes WHERE source = $1 AND change_type = 'delete'`, source);

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
  }, 120_000);
  afterAll(() => t.close());

  it('adds the AMPs of DICS answers to a stored SAM export and deletes none of its products', async () => {
    const asOf = new Date('2026-01-09T00:00:00Z');
    await ingestSnapshot(t.db, (await parseBeSam([fixture('be-sam/AMP.xml')], { asOf })).snapshot);
    expect(await products('be-sam')).toBe(4);
    await ingestSnapshot(t.db, (await parseBeSam(DICS, { asOf })).snapshot);
    expect(await products('be-sam')).toBe(12);
    expect(await deletes('be-sam')).toBe(0);
    // The export's own products are still answered.
    expect((await lookup('be_apb', '2345678')).country).toBe('BE');
  });

  it('answers a CNK of a DICS answer with its pack, ex-factory and public prices', async () => {
    const body = await lookup('be_apb', '3500188');
    expect(body).toMatchObject({ product_name: 'Paracetamol Teva 40 mg/ml', country: 'BE', atc_code: 'N02BE01', matched_pack: { description: '85 ml', units: 85 } });
    expect(body.matched_pack.prices).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'ex_factory', amount: 2.4, currency: 'EUR' }),
      expect.objectContaining({ kind: 'public', amount: 4.24, currency: 'EUR' }),
    ]));
    expect((await lookup('be_apb', '3551157')).product_name).toBe('Paracetamol Teva 500 mg');
  });

  it('keeps each HPRA list when the other is ingested alone, and both together delete nothing they hold', async () => {
    await ingestSnapshot(t.db, (await parseIeHpra([fixture('ie-hpra/real/latestHumanlist.xml')])).snapshot);
    expect(await products('ie-hpra')).toBe(12);
    await ingestSnapshot(t.db, (await parseIeHpra([fixture('ie-hpra/real/withdrawnHumanlist.xml')])).snapshot);
    expect(await products('ie-hpra')).toBe(20);
    await ingestSnapshot(t.db, (await parseIeHpra([fixture('ie-hpra/real/latestHumanlist.xml'), fixture('ie-hpra/real/withdrawnHumanlist.xml')])).snapshot);
    expect(await products('ie-hpra')).toBe(20);
    expect(await deletes('ie-hpra')).toBe(0);
  });

  it('finds Irish licences as published: EU ranges, letter suffixes, TR numbers, with ATC and withdrawal', async () => {
    const search = async (q: string) => { const res = await get(`/v1/drugs?q=${encodeURIComponent(q)}&country=IE`); expect(res.statusCode, res.body).toBe(200); return res.json().results as Array<{ id: string; product_name: string }>; };
    const [tempo] = (await search('EU/1/20/1422/017')).filter((r) => r.product_name.includes('Tempo Pen'));
    expect(tempo).toBeDefined();
    const record = (await get(`/v1/drugs/${tempo!.id}`)).json();
    expect(record).toMatchObject({ product_name: '100 units/mL Tempo Pen solution for injection in pre-filled pen', country: 'IE', atc_code: 'A10AB04' });
    expect((await search('EU/1/20/1422/016-017')).map((r) => r.id)).toContain(tempo!.id);
    expect((await search('EU/1/20/1422')).map((r) => r.id)).toContain(tempo!.id);
    const withdrawn = await lookup('ie_pa_number', 'PA0167/051/005A');
    expect(withdrawn).toMatchObject({ country: 'IE', marketing_status: 'withdrawn', authorisation_status: 'withdrawn', attributes: expect.objectContaining({ withdrawn_on: '2012-10-18' }) });
    expect((await lookup('ie_pa_number', 'TR2309/021/001')).holder).toBe('A.Vogel Ireland Limited');
    expect((await lookup('ie_pa_number', 'PA1968/018/001')).atc_code).toBe('B05BB01');
  });
});
