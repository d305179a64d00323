import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoSnapshots, DEMO_ATC_SOURCE_ID, demoSourceId } from '../../data/demo/build.ts';
import type { Database } from '../../platform/db.ts';
import { ingestSnapshots } from '../../workers/ingest/engine.ts';
import { detectInteractionFormat, readEphaCsv } from '../../workers/ingest/interactions-csv.ts';
import { InteractionFileError, loadInteractionFiles } from '../../workers/ingest/interactions.ts';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/db.ts';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/interactions/${name}`, import.meta.url));
const EPHA = fixture('epha-matrix.csv');
const DDINTER = [fixture('ddinter_downloads_code_B.csv'), fixture('ddinter_downloads_code_M.csv')];

describe('EPha matrix CSV', () => {
  const text = readFileSync(EPHA, 'utf8');
  const set = readEphaCsv([{ name: 'epha-matrix.csv', text }]);
  const rule = (key: string) => set.file.interactions.find((r) => r.key === key);

  it('is recognised by its header', () => {
    expect(detectInteractionFormat(text)).toBe('epha-csv');
    expect(detectInteractionFormat(readFileSync(DDINTER[0]!, 'utf8'))).toBe('ddinter-csv');
    expect(detectInteractionFormat('{"format":"drugref-interactions/1"}')).toBe('drugref-interactions/1');
    expect(detectInteractionFormat('a,b,c\n1,2,3')).toBeNull();
  });

  it('keeps one rule per pair from rows in both directions, the more severe grade winning', () => {
    expect(set.file.interactions.map((r) => r.key)).toEqual(['B01AA03~M01AE01', 'C10AA01~J01FA09', 'C01BD01~C10AA05', 'M01AE01~N02BE01']);
    expect(set.rows).toEqual({ read: 9, rules: 4, merged: 2 });
    expect(rule('B01AA03~M01AE01')).toMatchObject({ a: 'B01AA03', b: 'M01AE01', severity: 'major', evidence: 'probable' });
    expect(rule('B01AA03~M01AE01')!.description).toBe(
      'Erhöhtes Blutungsrisiko. Das Risiko schwerer, vor allem gastrointestinaler Blutungen steigt. (EPha D: Kombination vermeiden)');
  });

  it('maps the grades A, B/C, D and X onto minor, moderate, major and contraindicated', () => {
    expect(rule('C10AA01~J01FA09')!.severity).toBe('contraindicated');
    expect(rule('M01AE01~N02BE01')!.severity).toBe('minor');
    // The published file breaks a quote now and then: the grade "\nD" still reads as D.
    expect(rule('C01BD01~C10AA05')!.severity).toBe('major');
  });

  it('reports the malformed rows with their line numbers and skips them', () => {
    expect(set.problems).toEqual([
      { file: 'epha-matrix.csv', line: 8, message: '"J01FA09"" is not an ATC code' },
      { file: 'epha-matrix.csv', line: 10, message: 'grade "Q" is not one of A, B, C, D, X' },
      { file: 'epha-matrix.csv', line: 11, message: 'expected 9 fields, got 3' },
    ]);
  });

  it('keeps mechanism and measures out of open rows, and loads them as licensed rows only when asked', () => {
    expect(set.file.interactions.every((r) => r.licensed === undefined && r.mechanism === undefined)).toBe(true);
    const licensed = readEphaCsv([{ name: 'epha-matrix.csv', text }], { licensed: true });
    expect(licensed.file.interactions[0]!.licensed).toEqual({
      mechanism: 'Ibuprofen hemmt die Thrombozytenaggregation und schädigt die Magenschleimhaut.',
      management: 'Kombination vermeiden; falls unumgänglich, INR engmaschig kontrollieren und einen Protonenpumpenhemmer geben.',
    });
    expect(licensed.file.licences['epha-commercial']?.commercial).toBe(true);
  });
});

/** A database holding the demo ATC tree and substances (names to match DDInter against) and the Swiss demo register. */
async function catalogueDb(): Promise<Database> {
  const db = await openTestDatabase();
  await ingestSnapshots(db, buildDemoSnapshots().filter((s) => [DEMO_ATC_SOURCE_ID, demoSourceId('CH')].includes(s.source.id)));
  return db;
}

describe('loading the published sets', () => {
  let db: Database;
  beforeAll(async () => { db = await catalogueDb(); });
  afterAll(async () => { await db.close(); });

  it('loads the EPha file as open rules of source epha-interactions; a second load changes nothing', async () => {
    const first = await loadInteractionFiles(db, [EPHA]);
    expect(first).toMatchObject({ format: 'epha-csv', source: 'epha-interactions', open: { insert: 4 }, licensed: { insert: 0 }, changes: 4 });
    expect(first.problems.map((p) => p.line)).toEqual([8, 10, 11]);
    const again = await loadInteractionFiles(db, [EPHA]);
    expect(again.changes).toBe(0);
    const { rows } = await db.query<{ licence: string; attributions: string[] }>(`SELECT licence, attributions FROM interaction_rules WHERE source = 'epha-interactions' LIMIT 1`);
    expect(rows[0]).toEqual({ licence: 'epha-open', attributions: ['EPha.ch AG interaction matrix (epha.ch)'] });
  });

  it('loads DDInter\'s files as one set, its drug names matched to the catalogue\'s ATC codes, under CC BY-NC-SA 4.0', async () => {
    const r = await loadInteractionFiles(db, DDINTER);
    expect(r).toMatchObject({ format: 'ddinter-csv', source: 'ddinter', open: { insert: 7 }, rows: { read: 9, rules: 7, merged: 1 } });
    expect(r.problems).toEqual([
      { file: DDINTER[0], line: 6, message: 'drug "Abacavir" (DDInter1) matches no ATC code in the catalogue; its 2 row(s) are skipped' },
      { file: DDINTER[0], line: 9, message: 'level "Severe" is not one of Major, Moderate, Minor, Unknown' },
    ]);
    const { rows } = await db.query<{ natural_key: string; severity: string; evidence: string; licence: string; attributions: string[] }>(
      `SELECT natural_key, severity, evidence, licence, attributions FROM interaction_rules WHERE source = 'ddinter' ORDER BY natural_key`);
    expect(rows.map((x) => [x.natural_key, x.severity, x.evidence])).toEqual([
      ['B01AA03~B01AC06', 'major', 'probable'],
      ['B01AA03~C10AA01', 'moderate', 'probable'],
      ['B01AA03~M01AE01', 'major', 'probable'],
      ['B01AA03~N02BA01', 'major', 'probable'],
      ['B01AA03~N02BE01', 'minor', 'suspected'],
      ['B01AC06~M01AE01', 'moderate', 'probable'],
      ['M01AE01~N02BA01', 'moderate', 'probable'],
    ]);
    expect(rows[0]!.licence).toBe('CC-BY-NC-SA-4.0');
    expect(rows[0]!.attributions[0]).toMatch(/^DDInter: Xiong G\. et al\./);
    const { rows: licences } = await db.query(`SELECT id, commercial FROM interaction_licences WHERE source = 'ddinter'`);
    expect(licences).toEqual([{ id: 'CC-BY-NC-SA-4.0', commercial: false }]);
  });

  it('refuses a set with no usable row, and files of mixed formats, writing nothing', async () => {
    const empty = await openTestDatabase();
    try {
      await expect(loadInteractionFiles(empty, DDINTER)).rejects.toThrow(/no usable rows/);
      expect((await empty.query(`SELECT 1 FROM sources WHERE id = 'ddinter'`)).rowCount).toBe(0);
    } finally {
      await empty.close();
    }
    await expect(loadInteractionFiles(db, [EPHA, DDINTER[0]!])).rejects.toThrow(InteractionFileError);
  });
});

describe('POST /v1/interactions/check over real HTTP with the published sets loaded', () => {
  let t: TestApp;
  let base: string;
  let key: string;
  beforeAll(async () => {
    const db = await catalogueDb();
    await loadInteractionFiles(db, [EPHA]);
    await loadInteractionFiles(db, DDINTER);
    t = await startTestApp({ db });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    key = await t.key({ tier: 'developer' });
    const close = t.close.bind(t);
    t.close = async () => { await close(); await db.close(); };
  });
  afterAll(async () => { await t?.close(); });

  it('answers EPha and DDInter rules with their severities, licences and attributions', async () => {
    const res = await fetch(`${base}/v1/interactions/check`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ drugs: ['simvastatin', 'clarithromycin', 'aspirin', 'warfarin'] }),
    });
    expect(res.status).toBe(200);
    const body = await res.json() as {
      interactions: Array<{ atc_codes: string[]; severity: string; evidence: string; licence: string; commercial: boolean; source: string; attributions: string[]; description: string }>;
      _meta: { sources: Array<{ id: string }> };
    };
    const found = body.interactions.map((r) => [r.atc_codes.join('+'), r.severity, r.source, r.licence]);
    expect(found).toEqual(expect.arrayContaining([
      ['C10AA01+J01FA09', 'contraindicated', 'epha-interactions', 'epha-open'],
      ['B01AA03+B01AC06', 'major', 'ddinter', 'CC-BY-NC-SA-4.0'],
      ['B01AA03+C10AA01', 'moderate', 'ddinter', 'CC-BY-NC-SA-4.0'],
    ]));
    expect(body.interactions[0]).toMatchObject({ severity: 'contraindicated', commercial: false, description: expect.stringContaining('Rhabdomyolyse') });
    const ddinter = body.interactions.find((r) => r.source === 'ddinter')!;
    expect(ddinter.attributions[0]).toContain('CC BY-NC-SA 4.0');
    expect(body._meta.sources.map((s) => s.id).sort()).toEqual(['ddinter', 'epha-interactions']);
  });
});
