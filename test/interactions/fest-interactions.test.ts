/**
 * FEST's interaction catalogue (KatInteraksjon) as an interaction set: read from the same
 * fest251.xml fixture the no-fest adapter reads, loaded through `drugref reference
 * interactions`, and answered by /v1/interactions/check for Norwegian packs.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import { detectInteractionFormat } from '../../workers/ingest/interactions-csv.ts';
import { readFestInteractions } from '../../workers/ingest/interactions-fest.ts';
import { InteractionFileError, loadInteractionFiles } from '../../workers/ingest/interactions.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

const FEST = fileURLToPath(new URL('../fixtures/registers/no-fest/fest251.xml', import.meta.url));
const text = readFileSync(FEST, 'utf8');

describe('FEST interaction set', () => {
  const set = readFestInteractions([{ name: 'fest251.xml', text }]);
  const rule = (key: string) => set.file.interactions.find((r) => r.key === key);

  it('is recognised by its FEST root, prefixed or not', () => {
    expect(detectInteractionFormat(text)).toBe('fest-xml');
    expect(detectInteractionFormat('<?xml version="1.0"?><m30:FEST xmlns:m30="urn:x"/>')).toBe('fest-xml');
    expect(detectInteractionFormat('<?xml version="1.0"?><Annet/>')).toBeNull();
  });

  it('maps Relevans to severities and Kildegrunnlag to evidence, one rule per ATC pair across the two groups', () => {
    expect(rule('B01AF02~M01AE01')).toEqual({
      key: 'B01AF02~M01AE01', a: 'B01AF02', b: 'M01AE01', severity: 'major', evidence: 'theoretical',
      description: 'Økt blødningsrisiko. Additiv effekt på hemostasen. (FEST: Bør unngås)',
    });
    // The NSAID group gives naproxen its own rule; for ibuprofen the more severe assessment wins.
    expect(rule('B01AF02~M01AE02')).toMatchObject({ severity: 'moderate' });
    expect(rule('A10BA02~V08AB02')).toMatchObject({ severity: 'major', evidence: 'probable' });
    expect(rule('A03FA01~N02BE01')).toMatchObject({ severity: 'minor', evidence: 'established' });
    expect(set.rows).toEqual({ read: 6, rules: 4, merged: 1 });
  });

  it('records the NLOD licence and DMP attribution, and reports unusable entries with their line', () => {
    expect(set.file.licences).toEqual({ 'NLOD-2.0': expect.objectContaining({ commercial: false, url: 'https://data.norge.no/nlod/no/2.0' }) });
    expect(set.file.defaults).toEqual({ licence: 'NLOD-2.0', attributions: ['FEST, Direktoratet for medisinske produkter (DMP)'] });
    expect(set.problems.map((p) => p.message)).toEqual([
      'a Substansgruppe names no substance with an ATC code',
      'Relevans "9" (Ukjent) is not a known grade',
    ]);
    const lines = text.split('\n');
    for (const p of set.problems) expect(lines[p.line - 1]).toContain('<OppfInteraksjon>');
  });

  it('refuses a document that is not FEST', () => {
    expect(() => readFestInteractions([{ name: 'x.xml', text: '<?xml version="1.0"?><Annet/>' }])).toThrow(InteractionFileError);
  });
});

describe('POST /v1/interactions/check with FEST products and interactions loaded', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'developer' });
    const { snapshot } = await findAdapter('no-fest')!.parse([{ name: 'fest251.xml', content: Buffer.from(text) }]);
    await ingestSnapshot(t.db, snapshot);
    const report = await loadInteractionFiles(t.db, [FEST]);
    expect(report).toMatchObject({ format: 'fest-xml', source: 'no-fest-interactions', open: { insert: 4 }, rows: { read: 6, rules: 4 } });
    expect((await loadInteractionFiles(t.db, [FEST])).changes).toBe(0);
  });
  afterAll(() => t.close());

  it('answers Eliquis with Ibux by varenummer with FEST\'s grade, licence and attribution', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v1/interactions/check', headers: bearer(key),
      payload: { drugs: [{ system: 'no_varenummer', code: '413561' }, { system: 'no_varenummer', code: '187654' }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().interactions).toEqual([expect.objectContaining({
      atc_codes: ['B01AF02', 'M01AE01'], severity: 'major', source: 'no-fest-interactions', licence: 'NLOD-2.0', commercial: false,
      attributions: ['FEST, Direktoratet for medisinske produkter (DMP)'], description: expect.stringContaining('Økt blødningsrisiko'),
    })]);
  });
});
