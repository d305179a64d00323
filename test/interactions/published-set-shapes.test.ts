/**
 * Published interaction files as they come: DDInter's download CSV (BOM, CRLF, quoted names
 * with commas, rows without an id or a level), a DDInter-shaped set with a Mechanism column,
 * and an EPha matrix without its free-text columns; loaded and answered over HTTP.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoSnapshots, DEMO_ATC_SOURCE_ID, demoSourceId } from '../../data/demo/build.ts';
import type { Database } from '../../platform/db.ts';
import { ingestSnapshots } from '../../workers/ingest/engine.ts';
import { ddinterSet, detectInteractionFormat, readDdinterCsv, readEphaCsv } from '../../workers/ingest/interactions-csv.ts';
import { readInteractionFile } from '../../workers/ingest/interactions-format.ts';
import { loadInteractionFiles } from '../../workers/ingest/interactions.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/db.ts';

const path = (name: string): string => fileURLToPath(new URL(`../fixtures/registers/${name}`, import.meta.url));
const DDINTER = path('ddinter/ddinter_downloads_code_B.csv');
const MECHANISM = path('ddinter/ddinter_with_mechanism.csv');
const EPHA = path('epha/epha-matrix-without-texts.csv');
const text = (file: string) => ({ name: file, text: readFileSync(file, 'utf8') });
const ATC = new Map([['warfarin', ['B01AA03']], ['simvastatin', ['C10AA01']], ['acetaminophen', ['N02BE01']], ['ibuprofen', ['M01AE01']], ['aspirin', ['B01AC06', 'N02BA01']]]);

describe('DDInter download CSV as published', () => {
  const parsed = readDdinterCsv([text(DDINTER)]);
  const set = ddinterSet(parsed, ATC);
  const rule = (key: string) => set.file.interactions.find((r) => r.key === key);

  it('keeps the DDInter ids of both drugs on each rule, with the ATC code each was matched to', () => {
    expect(rule('B01AA03~C10AA01')?.cross_references).toEqual([
      { system: 'ddinter', code: 'DDInter1913', atc: 'B01AA03', name: 'Warfarin' },
      { system: 'ddinter', code: 'DDInter1701', atc: 'C10AA01', name: 'Simvastatin' },
    ]);
    // Aspirin has two ATC codes: each rule names DDInter29 under the code it stands for.
    expect(rule('M01AE01~N02BA01')?.cross_references).toEqual([
      { system: 'ddinter', code: 'DDInter924', atc: 'M01AE01', name: 'Ibuprofen' },
      { system: 'ddinter', code: 'DDInter29', atc: 'N02BA01', name: 'Aspirin' },
    ]);
    // A row without an id still makes its rule; only the drug with an id is referenced.
    expect(rule('B01AA03~M01AE01')).toMatchObject({ severity: 'major', cross_references: [{ system: 'ddinter', code: 'DDInter924', atc: 'M01AE01', name: 'Ibuprofen' }] });
    expect(rule('B01AA03~C10AA01')?.interaction_type).toBeUndefined();
  });

  it('reads a quoted name with a comma and reports it and a short row with their lines', () => {
    expect(set.problems).toEqual([
      { file: DDINTER, line: 4, message: 'drug "Sodium phosphate, monobasic" (DDInter1719) matches no ATC code in the catalogue; its 1 row(s) are skipped' },
      { file: DDINTER, line: 7, message: 'expected 5 fields, got 4' },
    ]);
    expect(set.rows).toEqual({ read: 6, rules: 5, merged: 0 });
  });

  it('gives each rule the interaction type of a set that carries one, Unknown meaning none', () => {
    expect(detectInteractionFormat(readFileSync(MECHANISM, 'utf8'))).toBe('ddinter-csv');
    const typed = ddinterSet(readDdinterCsv([text(MECHANISM)]), ATC);
    expect(typed.file.interactions.find((r) => r.key === 'B01AA03~C10AA01')).toMatchObject({ interaction_type: 'metabolism' });
    expect(typed.file.interactions.find((r) => r.key === 'B01AA03~M01AE01')?.interaction_type).toBeUndefined();
  });
});

describe('EPha matrix without its free-text columns', () => {
  const set = readEphaCsv([text(EPHA)]);
  const rule = (key: string) => set.file.interactions.find((r) => r.key === key);

  it('is recognised by ATC1, ATC2 and Grad and describes each rule by its names and grade', () => {
    expect(detectInteractionFormat(readFileSync(EPHA, 'utf8'))).toBe('epha-csv');
    expect(rule('B01AA03~M01AE01')).toMatchObject({ severity: 'major', description: 'Warfarin and Ibuprofen: interaction listed by EPha (EPha D: Kombination vermeiden)' });
    expect(rule('C10AA01~J01FA09')).toMatchObject({ severity: 'contraindicated' });
    expect(rule('B01AA03~N02BE01')?.description).toBe('Warfarin and N02BE01: interaction listed by EPha (EPha B: Vorsichtsmassnahmen empfohlen)');
    expect(set.file.interactions.every((r) => r.licensed === undefined)).toBe(true);
  });

  it('reports the same-code and short rows with their lines', () => {
    expect(set.problems).toEqual([
      { file: EPHA, line: 6, message: 'ATC1 and ATC2 are the same code N02BE01' },
      { file: EPHA, line: 7, message: 'expected 5 fields, got 4' },
    ]);
  });
});

describe('the sets loaded and answered', () => {
  let t: TestApp;
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase();
    await ingestSnapshots(db, buildDemoSnapshots().filter((s) => [DEMO_ATC_SOURCE_ID, demoSourceId('CH')].includes(s.source.id)));
    expect((await loadInteractionFiles(db, [DDINTER])).open.insert).toBeGreaterThan(0);
    expect((await loadInteractionFiles(db, [EPHA])).open).toMatchObject({ insert: 3 });
    t = await startTestApp({ db });
  });
  afterAll(async () => { await t.close(); await db.close(); });

  it('returns the DDInter ids with a DDInter rule and none with an EPha rule', async () => {
    const key = await t.key({ tier: 'developer' });
    const res = await t.app.inject({ method: 'POST', url: '/v1/interactions/check', headers: bearer(key), payload: { drugs: ['warfarin', 'simvastatin', 'clarithromycin'] } });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().interactions as Array<{ atc_codes: string[]; source: string; cross_references: unknown[]; interaction_type: string | null }>;
    const ddinter = rows.find((r) => r.source === 'ddinter' && r.atc_codes.join('+') === 'B01AA03+C10AA01');
    expect(ddinter).toMatchObject({
      cross_references: [
        { system: 'ddinter', code: 'DDInter1913', atc: 'B01AA03', name: 'Warfarin' },
        { system: 'ddinter', code: 'DDInter1701', atc: 'C10AA01', name: 'Simvastatin' },
      ],
      interaction_type: null,
    });
    const epha = rows.find((r) => r.atc_codes.join('+') === 'C10AA01+J01FA09');
    expect(epha).toMatchObject({ source: 'epha-interactions', severity: 'contraindicated', cross_references: [], interaction_type: null });
  });
});

describe('cross-references and interaction types in the drugref-interactions/1 format', () => {
  const file = (entry: Record<string, unknown>) => ({
    format: 'drugref-interactions/1', source: { id: 's', name: 'S', refresh_interval_hours: 24 }, licences: { open: { name: 'Open', commercial: false } },
    defaults: { licence: 'open', attributions: ['S'] },
    interactions: [{ a: 'B01AA03', b: 'M01AE01', severity: 'major', evidence: 'probable', description: 'Bleeding.', ...entry }],
  });

  it('keeps them on the open row and refuses a reference without an ATC code', () => {
    const refs = [{ system: 'ddinter', code: 'DDInter1913', atc: 'b01aa03' }];
    expect(readInteractionFile(file({ cross_references: refs, interaction_type: 'pharmacodynamic' })).open[0]).toMatchObject({
      cross_references: [{ system: 'ddinter', code: 'DDInter1913', atc: 'B01AA03' }], interaction_type: 'pharmacodynamic',
    });
    expect(() => readInteractionFile(file({ cross_references: [{ system: 'ddinter', code: 'DDInter1913', atc: 'warfarin' }] }))).toThrow(/"WARFARIN" is not an ATC code/);
  });
});

describe('DDInter mechanism in the answer', () => {
  let db: Database;
  let t: TestApp;

  beforeAll(async () => {
    db = await openTestDatabase();
    await ingestSnapshots(db, buildDemoSnapshots().filter((s) => [DEMO_ATC_SOURCE_ID, demoSourceId('CH')].includes(s.source.id)));
    expect((await loadInteractionFiles(db, [MECHANISM])).open.insert).toBeGreaterThan(0);
    t = await startTestApp({ db });
  });
  afterAll(async () => { await t.close(); await db.close(); });

  it('answers the interaction check with the mechanism DDInter gives (Metabolism), none for Unknown', async () => {
    const key = await t.key({ tier: 'developer' });
    const res = await t.app.inject({ method: 'POST', url: '/v1/interactions/check', headers: bearer(key), payload: { drugs: ['warfarin', 'simvastatin', 'ibuprofen'] } });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().interactions as Array<{ atc_codes: string[]; source: string; interaction_type: string | null }>;
    expect(rows.find((r) => r.atc_codes.join('+') === 'B01AA03+C10AA01')).toMatchObject({ source: 'ddinter', interaction_type: 'metabolism' });
    expect(rows.find((r) => r.atc_codes.join('+') === 'B01AA03+M01AE01')).toMatchObject({ source: 'ddinter', interaction_type: null });
  });
});
