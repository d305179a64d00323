/**
 * who-atc on WHO's DDD table and code list as published (real excerpts, original bytes; see
 * test/fixtures/registers/who-atc/real/SOURCE.md). The DDD table lists every level-5 code,
 * more than half of them with `NA,NA,NA`: substances WHO gives no DDD. Those rows are the
 * table's normal content, excluded as `no_ddd`, never malformed, so the skipped-rows guard lets
 * the file in with its default limits.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../platform/db.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseWhoAtcFiles } from '../../../workers/ingest/adapters/who-atc.ts';
import { parseAndIngest } from '../../../workers/ingest/apply.ts';
import { openTestDatabase } from '../../helpers/db.ts';

const REAL = new URL('../../fixtures/registers/who-atc/real/', import.meta.url);
const DDD_FILE = 'WHO_ATC_DDD_2026-07-14.csv';
const CODES_FILE = 'WHO_ATC_codes_2026-07-14.csv';
const bytes = (name: string): Buffer => readFileSync(new URL(name, REAL));
const input = (name: string, as = name): InputFile => ({ name: as, content: bytes(name) });
/** The limits `drugref ingest` and sync use unless configured (INGEST_MAX_*_PERCENT). */
const DEFAULT_LIMITS = { maxDeletePercent: 20, maxSkippedPercent: 10 };

describe('who-atc on the real DDD table (WHO_ATC_DDD_2026-07-14.csv)', () => {
  const { snapshot, problems, files } = parseWhoAtcFiles([input(DDD_FILE)]);
  const entry = (code: string) => snapshot.atc?.find((e) => e.code === code);
  const text = bytes(DDD_FILE).toString('utf8');

  it('tells the DDD table from a code list by its header (source_code, ddd, uom, adm_r)', () => {
    expect(files).toEqual([{ file: DDD_FILE, role: 'DDD table', read: 696, kept: 327, malformed: 0, excluded: { no_ddd: 369 } }]);
    expect(problems).toEqual([]);
  });

  it('keeps no names from it (it names level 5 only: the tree stays as the code list states it)', () => {
    expect(snapshot.atc).toHaveLength(274);
    expect(snapshot.atc?.every((e) => e.name === undefined)).toBe(true);
  });

  it('reads the DDDs of named rows as the file states them', () => {
    expect(text).toContain('\nA02BC,A02BC01,omeprazole,20,mg,O,NA\nA02BC,A02BC01,omeprazole,20,mg,P,NA\n');
    expect(entry('A02BC01')?.ddd).toEqual([{ value: 20, unit: 'mg', route: 'O' }, { value: 20, unit: 'mg', route: 'P' }]);
    expect(text).toContain('\nA01AA,A01AA01,sodium fluoride,1.1,mg,O,0.5 mg fluoride\n');
    expect(entry('A01AA01')?.ddd).toEqual([{ value: 1.1, unit: 'mg', route: 'O', note: '0.5 mg fluoride' }]);
    expect(text).toContain('\nA10AB,A10AB01,insulin (human),40,U,P,NA\n');
    expect(entry('A10AB01')?.ddd).toEqual([{ value: 40, unit: 'U', route: 'P' }]);
    expect(text.endsWith('\nA16AA,A16AA06,betaine,6,g,O,NA\n')).toBe(true);
    expect(entry('A16AA06')?.ddd).toEqual([{ value: 6, unit: 'g', route: 'O' }]);
  });

  it('leaves out the codes WHO gives no DDD, a note without DDD included', () => {
    expect(text).toContain('\nA01AA,A01AA02,sodium monofluorophosphate,NA,NA,NA,NA\n');
    expect(entry('A01AA02')).toBeUndefined();
    expect(text).toContain('\nA02AD,A02AD01,ordinary salt combinations,NA,NA,NA,Standard dose: 10 tablets or 50 ml mixt\n');
    expect(entry('A02AD01')).toBeUndefined();
  });
});

describe('who-atc on the real code list and DDD table together', () => {
  it('recognises each by its header, in either order, whatever the dated names', () => {
    const one = parseWhoAtcFiles([input(CODES_FILE), input(DDD_FILE)]);
    const other = parseWhoAtcFiles([input(DDD_FILE, 'ddd.csv'), input(CODES_FILE, 'atc-codes.csv')]);
    expect(one.files).toEqual([
      { file: CODES_FILE, role: 'code list', read: 1210, kept: 1210, malformed: 0 },
      { file: DDD_FILE, role: 'DDD table', read: 696, kept: 327, malformed: 0, excluded: { no_ddd: 369 } },
    ]);
    expect(other.files?.map((f) => [f.file, f.role])).toEqual([['ddd.csv', 'DDD table'], ['atc-codes.csv', 'code list']]);
    // The code list has every level from 2 down, so no group is missing; level 1 comes from WHO's labels.
    expect(one.problems).toEqual([]);
  });

  it('takes a release folder whole: members that are neither table are named unused with why, not refused', () => {
    const readme = { name: 'README.txt', content: Buffer.from('WHO ATC/DDD index 2026, scraped from atcddd.fhi.no\n') };
    const broken = { name: 'WHO_ATC_DDD_old.csv', content: Buffer.from('atc_code,ddd\nA02BC01,20\n') };
    const { files, snapshot } = parseWhoAtcFiles([readme, input(CODES_FILE), broken, input(DDD_FILE)]);
    expect(files).toEqual([
      { file: 'README.txt', role: 'unused', read: 0, kept: 0, malformed: 0, note: 'not a WHO ATC file: header lacks atc_code (ATC code)' },
      { file: CODES_FILE, role: 'code list', read: 1210, kept: 1210, malformed: 0 },
      { file: 'WHO_ATC_DDD_old.csv', role: 'unused', read: 0, kept: 0, malformed: 0, note: 'not a WHO ATC/DDD table: header has ddd but lacks uom (U) or adm_r (Adm.R)' },
      { file: DDD_FILE, role: 'DDD table', read: 696, kept: 327, malformed: 0, excluded: { no_ddd: 369 } },
    ]);
    expect(snapshot.atc?.find((e) => e.code === 'A02BC01')?.ddd).toEqual([{ value: 20, unit: 'mg', route: 'O' }, { value: 20, unit: 'mg', route: 'P' }]);
    // Without a table among them the files are refused, with what the first one lacks.
    expect(() => parseWhoAtcFiles([readme, broken])).toThrow(/README\.txt.*header lacks atc_code/);
  });

  it('names each code from the code list and gives it the DDDs of the table, none where WHO gives none', () => {
    const { snapshot } = parseWhoAtcFiles([input(CODES_FILE), input(DDD_FILE)]);
    const entry = (code: string) => snapshot.atc?.find((e) => e.code === code);
    expect(bytes(CODES_FILE).toString('utf8')).toContain('\nA02BC,Proton pump inhibitors\nA02BC01,omeprazole\n');
    expect(entry('A02BC')).toEqual({ code: 'A02BC', name: 'Proton pump inhibitors', level: 4, ddd: [] });
    expect(entry('A02BC01')).toEqual({ code: 'A02BC01', name: 'omeprazole', level: 5, ddd: [{ value: 20, unit: 'mg', route: 'O' }, { value: 20, unit: 'mg', route: 'P' }] });
    expect(entry('A01AA02')).toEqual({ code: 'A01AA02', name: 'sodium monofluorophosphate', level: 5, ddd: [] });
    expect(entry('A')).toEqual({ code: 'A', name: 'ALIMENTARY TRACT AND METABOLISM', level: 1 });
  });
});

describe('who-atc: the real DDD table through parseAndIngest with the default limits', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('is let in by the skipped-rows guard and writes its DDDs', async () => {
    const result = await parseAndIngest(db, 'who-atc', [input(DDD_FILE)], { strict: true, shrink: DEFAULT_LIMITS });
    expect(result.outcome).toBe('ok');
    expect(result.rows).toEqual({ read: 696, kept: 327, malformed: 0, excluded: 369 });
    const { rows } = await db.query<{ value: number; unit: string; route: string }>(
      `SELECT value::float8 AS value, unit, route FROM atc_ddd WHERE code = 'A02BC01' ORDER BY route`,
    );
    expect(rows).toEqual([{ value: 20, unit: 'mg', route: 'O' }, { value: 20, unit: 'mg', route: 'P' }]);
    expect((await db.query(`SELECT 1 FROM atc_ddd WHERE code = 'A01AA02'`)).rowCount).toBe(0);
  });

  it('refuses a cut-short file under --strict, an empty file and another register\'s file, writing nothing', async () => {
    const before = (await db.query('SELECT count(*)::int AS n FROM atc_ddd')).rows[0];
    const whole = bytes(DDD_FILE);
    const cut = whole.subarray(0, whole.lastIndexOf('A16AA06') + 12);
    const truncated = await parseAndIngest(db, 'who-atc', [{ name: DDD_FILE, content: cut }], { strict: true, shrink: DEFAULT_LIMITS });
    expect(truncated).toMatchObject({ outcome: 'refused', reason: '1 malformed row(s) under strict mode' });
    expect(truncated.problems).toEqual([{ file: DDD_FILE, line: 697, message: "3 of the header's 7 columns (a file cut short?)" }]);
    const headerOnly = whole.subarray(0, whole.indexOf('\n') + 1);
    const header = await parseAndIngest(db, 'who-atc', [{ name: DDD_FILE, content: headerOnly }], { strict: false, shrink: DEFAULT_LIMITS });
    expect(header).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/no data rows below the header/) });
    const empty = await parseAndIngest(db, 'who-atc', [{ name: DDD_FILE, content: Buffer.alloc(0) }], { strict: false, shrink: DEFAULT_LIMITS });
    expect(empty).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/header lacks atc_code/) });
    const gkv = readFileSync(new URL('../../fixtures/registers/de-pzn/real/gkv_zuzahlungsbefreit_2009-09_p1.txt', import.meta.url));
    const other = await parseAndIngest(db, 'who-atc', [{ name: 'gkv.txt', content: gkv }], { strict: false, shrink: DEFAULT_LIMITS });
    expect(other).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/not a WHO ATC file/) });
    expect((await db.query('SELECT count(*)::int AS n FROM atc_ddd')).rows[0]).toEqual(before);
  });
});
