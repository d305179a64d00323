/**
 * openFDA shortages end to end: the real excerpt of the 2026-06-19 download ingested over a
 * test catalogue holding the one US pack it names twice (Quinapril 0071-0535-23: a `To Be
 * Discontinued` record of 10/2025 read first, a `Current`, `Unavailable` one updated 06/2026
 * read later). The ingest counts the older record as superseded, and the drug record answers
 * with the later record's status.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import { parseAndIngest } from '../../workers/ingest/apply.ts';
import type { ApplyResult } from '../../workers/ingest/apply.ts';
import { SNAPSHOT_FORMAT } from '../../workers/ingest/snapshot.ts';

const NAME = 'drug-shortages-0001-of-0001.json';
const EXCERPT = readFileSync(new URL(`../fixtures/registers/us-fda-shortages/real/${NAME}`, import.meta.url));

interface Supply { status: string; reason: string | null; since: string | null; source: string }

describe('US FDA shortages through the API', () => {
  let t: TestApp;
  let key: string;
  let id: string;
  let ingested: ApplyResult;

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'starter' });
    // Test data: a catalogue of one product whose pack carries the NDC the excerpt names twice.
    await ingestSnapshot(t.db, {
      format: SNAPSHOT_FORMAT, source: { id: 'test-us', name: 'Test register US', country: 'US', refresh_interval_hours: 24 },
      substances: [{ unii: 'RJ84Y44811', name: 'Quinapril' }],
      products: [{
        key: 'accupril', country: 'US', product_name: 'Accupril 40 mg tablet', dose_form: 'tablet', route: 'oral', atc_code: 'C09AA06',
        ingredients: [{ unii: 'RJ84Y44811', strength_value: 40, strength_unit: 'mg' }], identifiers: [],
        packs: [{ key: 'accupril-90', description: '90 tablets', identifiers: [{ system: 'ndc11', code: '00071053523' }] }],
      }],
    });
    const { rows } = await t.db.query<{ id: string }>(`SELECT id FROM products WHERE record->>'key' = 'accupril'`);
    id = rows[0]!.id;
    ingested = await parseAndIngest(t.db, 'us-fda-shortages', [{ name: NAME, content: EXCERPT }], { strict: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts each of the ten records once: nine kept, the older Quinapril record excluded', () => {
    expect(ingested).toMatchObject({
      outcome: 'ok', rows: { read: 10, kept: 9, malformed: 0, excluded: 1 }, supply: { insert: 9 },
      files: [{ file: NAME, role: 'shortages', read: 10, kept: 9, malformed: 0, excluded: { superseded: 1 } }],
    });
  });

  it('answers the pack with the record updated last, not the one read first', async () => {
    const res = await t.app.inject({ url: `/v1/drugs/${id}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const drug = res.json() as { supply_status: string; packs: Array<{ description: string; supply: Supply | null }> };
    expect(drug.packs[0]!.supply).toMatchObject({
      status: 'unavailable', reason: 'Discontinuation of the manufacture of the drug', since: '2023-01-19', source: 'us-fda-shortages',
    });
    expect(drug.supply_status).toBe('unavailable');
  });
});
