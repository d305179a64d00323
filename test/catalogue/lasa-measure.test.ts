/**
 * Precision and recall of the computed LASA pairs (spelling and phonetic, not curated) against
 * the transcribed ISMP / FDA confused-names pairs (test/fixtures/lasa/ismp-confused-names.csv).
 * Method and numbers: docs/catalogue.md "LASA".
 *
 * Universe: the name keys of the listed pairs plus the keys of every marketed US name of the
 * demo catalogue (the lists are American, and pairs are computed within one country). Every
 * pair of the universe that `lasa_similar_pairs` flags counts; a flagged pair is right when
 * the list names it. Recall = listed pairs flagged / listed pairs (both names of each are in the
 * universe by construction). Precision = listed pairs flagged / pairs flagged: a lower bound,
 * since the list is far from every confusable pair (azithromycin / clarithromycin is not in it).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { LASA_PHONETIC_MIN, LASA_SPELLING_MIN } from '../../resolvers/catalogue/lasa-refresh.ts';
import { readLasaRows, resolvePairs } from '../../workers/ingest/lasa-file.ts';
import { openTestDatabase } from '../helpers/db.ts';

const FIXTURE = new URL('../fixtures/lasa/ismp-confused-names.csv', import.meta.url);

/** Measured on this fixture and the demo catalogue (docs/catalogue.md); a change that lowers them fails. */
const MEASURED = { listed: 169, universe: 420, recall: 0.402, precision: 0.361, closedPrecision: 0.485 };

interface Scored { a: string; b: string; spelling: number; phonetic: number }

describe('LASA measurement against the ISMP / FDA confused-names pairs', () => {
  let db: Database;
  let listed: Set<string>;
  let listedNames: Set<string>;
  let universe: string[];
  let scored: Scored[];
  const id = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

  beforeAll(async () => {
    db = await openTestDatabase({ demo: true });
    const file = FIXTURE.pathname;
    const read = readLasaRows(file, await readFile(FIXTURE, 'utf8'));
    const { pairs, problems } = await resolvePairs(db, file, read.rows);
    expect([...read.problems, ...problems]).toEqual([]);
    listed = new Set(pairs.map((p) => id(p.keyA, p.keyB)));
    listedNames = new Set(pairs.flatMap((p) => [p.keyA, p.keyB]));
    const { rows } = await db.query<{ key: string }>(
      `SELECT DISTINCT lasa_name_key(product_name) AS key FROM products
        WHERE country = 'US' AND searchable AND marketing_status = 'active' AND length(lasa_name_key(product_name)) >= 3`,
    );
    universe = [...new Set([...listedNames, ...rows.map((r) => r.key)])].sort();
    // One pass at the lowest thresholds of the grid; similarities at or above them are exact.
    scored = (await db.query<Scored>('SELECT a, b, spelling, phonetic FROM lasa_similar_pairs($1, 0.5, 0.7)', [universe])).rows;
  }, 120_000);
  afterAll(() => db.close());

  function measure(spellingMin: number, phoneticMin: number, names?: Set<string>) {
    const flagged = scored.filter((p) => (p.spelling >= spellingMin - 1e-9 || p.phonetic >= phoneticMin - 1e-9)
      && (!names || (names.has(p.a) && names.has(p.b))));
    const hits = flagged.filter((p) => listed.has(id(p.a, p.b))).length;
    return { flagged: flagged.length, hits, recall: hits / listed.size, precision: flagged.length ? hits / flagged.length : 0, f1: (2 * hits) / (flagged.length + listed.size) };
  }

  it('keeps recall and precision at or above the measured values', () => {
    expect(listed.size).toBe(MEASURED.listed);
    expect(universe.length).toBe(MEASURED.universe);
    const m = measure(LASA_SPELLING_MIN, LASA_PHONETIC_MIN);
    expect(m.recall).toBeGreaterThanOrEqual(MEASURED.recall);
    expect(m.precision).toBeGreaterThanOrEqual(MEASURED.precision);
    // Closed world: only pairs of two listed names count as flagged.
    expect(measure(LASA_SPELLING_MIN, LASA_PHONETIC_MIN, listedNames).precision).toBeGreaterThanOrEqual(MEASURED.closedPrecision);
  });

  it('uses the thresholds with the best F1 on a 0.05 grid', () => {
    const grid: Array<{ s: number; p: number; f1: number }> = [];
    for (let s = 0.5; s <= 0.70001; s += 0.05) {
      for (let p = 0.7; p <= 1.00001; p += 0.05) grid.push({ s: Math.round(s * 100) / 100, p: Math.round(p * 100) / 100, f1: measure(s, p).f1 });
    }
    const best = Math.max(...grid.map((g) => g.f1));
    expect(measure(LASA_SPELLING_MIN, LASA_PHONETIC_MIN).f1).toBeCloseTo(best, 10);
    // Each kind of similarity earns its place: dropping either lowers F1.
    expect(measure(LASA_SPELLING_MIN, 2).f1).toBeLessThan(best);
    expect(measure(2, LASA_PHONETIC_MIN).f1).toBeLessThan(best);
  });

  it('flags textbook pairs for the stated reason and leaves distant names alone', async () => {
    const { rows } = await db.query<Scored>(
      'SELECT a, b, spelling, phonetic FROM lasa_similar_pairs($1, $2, $3)',
      [['vinblastine', 'vincristine', 'doxil', 'taxol', 'zyprexa', 'dafalgan'], LASA_SPELLING_MIN, LASA_PHONETIC_MIN],
    );
    const byPair = new Map(rows.map((r) => [id(r.a, r.b), r]));
    expect(byPair.get(id('vinblastine', 'vincristine'))!.spelling).toBeGreaterThanOrEqual(LASA_SPELLING_MIN);
    expect(byPair.get(id('doxil', 'taxol'))!.phonetic).toBe(1);
    expect([...byPair.keys()].some((k) => k.includes('dafalgan') || k.includes('zyprexa'))).toBe(false);
  });
});
