import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { DEMO_INTERACTIONS_FILE, InteractionFileError, loadDemoInteractions, loadInteractions } from '../../workers/ingest/interactions.ts';
import { readInteractionFile } from '../../workers/ingest/interactions-format.ts';
import type { InteractionFile } from '../../workers/ingest/interactions-format.ts';

let db: Database;
let demo: InteractionFile;
beforeAll(async () => {
  db = await openTestDatabase();
  demo = JSON.parse(await readFile(DEMO_INTERACTIONS_FILE, 'utf8')) as InteractionFile;
});
afterAll(async () => { await db?.close(); });

const small = (interactions: unknown[], licences: Record<string, unknown> = demo.licences): unknown => ({
  format: 'drugref-interactions/1',
  source: { id: 'test-interactions', name: 'Test set', refresh_interval_hours: 24 },
  licences,
  defaults: demo.defaults,
  interactions,
});

describe('the demonstration interaction set', () => {
  it('holds at least 120 rules, all on ATC codes of the demo ATC tree, every one with mechanism and management', async () => {
    const atc = JSON.parse(await readFile(new URL('../../data/demo/curated/atc.json', import.meta.url), 'utf8')) as Array<{ code: string }>;
    const codes = new Set(atc.map((a) => a.code));
    expect(demo.interactions.length).toBeGreaterThanOrEqual(120);
    for (const entry of demo.interactions) {
      expect(codes.has(entry.a) && codes.has(entry.b), `${entry.a} ${entry.b}`).toBe(true);
      expect(entry.licensed?.mechanism.length).toBeGreaterThan(10);
      expect(entry.licensed?.management.length).toBeGreaterThan(5);
    }
    expect(demo.source.name).toContain('not for clinical use');
    const { open, licensed } = readInteractionFile(demo);
    expect(open).toHaveLength(demo.interactions.length);
    expect(licensed).toHaveLength(demo.interactions.length);
    expect(open.every((r) => r.mechanism === undefined)).toBe(true);
  });

  it('loads through the loader with one insert change record per row, and a reload writes nothing', async () => {
    const first = await loadDemoInteractions(db);
    expect(first.open.insert).toBe(demo.interactions.length);
    expect(first.licensed.insert).toBe(demo.interactions.length);
    expect(first.changes).toBe(2 * demo.interactions.length);
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM changes WHERE source = 'demo-interactions' AND change_type = 'insert'");
    expect(rows[0]!.n).toBe(2 * demo.interactions.length);
    const again = await loadDemoInteractions(db);
    expect(again.changes).toBe(0);
    expect(again.open.unchanged).toBe(demo.interactions.length);
  });
});

describe('loadInteractions', () => {
  const entry = { a: 'C10AA01', b: 'J01FA09', severity: 'major', evidence: 'established', description: 'd', licensed: { mechanism: 'm', management: 'g' } };

  it('records updates and deletes when a replacement file changes or drops rules', async () => {
    await loadInteractions(db, small([entry, { ...entry, a: 'B01AA03', b: 'M01A' }]));
    const report = await loadInteractions(db, small([{ ...entry, severity: 'contraindicated' }]));
    expect(report.open).toEqual({ insert: 0, update: 1, delete: 1, unchanged: 0 });
    expect(report.licensed).toEqual({ insert: 0, update: 1, delete: 1, unchanged: 0 });
    const { rows } = await db.query<{ change_type: string; before: { severity: string } | null }>(
      "SELECT change_type, before FROM changes WHERE source = 'test-interactions' AND table_name = 'interaction_rules' ORDER BY occurred_at DESC LIMIT 2");
    expect(rows.map((r) => r.change_type).sort()).toEqual(['delete', 'update']);
  });

  it('refuses malformed files and writes nothing', async () => {
    const before = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM interaction_rules');
    const bad: Array<[unknown, RegExp]> = [
      [{ ...(small([entry]) as object), format: 'x' }, /format/],
      [small([{ ...entry, a: 'not-atc' }]), /not an ATC code/],
      [small([{ ...entry, severity: 'severe' }]), /severity/],
      [small([{ ...entry, mechanism: 'open rows cannot carry it' }]), /commercially licensed/],
      [small([{ ...entry, licence: 'unknown' }]), /not declared/],
      [small([entry, entry]), /appears twice/],
    ];
    for (const [file, message] of bad) {
      const error = await loadInteractions(db, file).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(InteractionFileError);
      expect((error as Error).message).toMatch(message);
    }
    const after = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM interaction_rules');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });
});
