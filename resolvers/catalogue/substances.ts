/**
 * The substance layer (GET /v1/substances/{unii}, /v1/substances/xref): substances keyed
 * by UNII, salts and esters folded to their active moiety, so "drugs containing it"
 * means every product whose ingredients fold to the same moiety.
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../../platform/db.ts';
import { PRODUCT_COLUMNS, toDrug } from './drug-rows.ts';
import type { DrugRow, ProductRecord } from './drug-rows.ts';

/** Products listed on a substance view (the count and markets stay exact). */
export const SUBSTANCE_DRUG_SAMPLE = 50;

export interface SubstanceRow {
  unii: string;
  name: string;
  names: Record<string, string>;
  provisional: boolean;
  moietyUnii: string;
  formula: string | null;
  smiles: string | null;
  inchikey: string | null;
  rxcui: string | null;
  atcCodes: string[];
  source: string;
}

export interface MoietyDrugs {
  count: number;
  markets: string[];
  drugs: DrugRow[];
}

export const SUBSTANCE_COLUMNS = `s.unii, s.name, s.names, s.provisional, s.moiety_unii AS "moietyUnii", s.formula, s.smiles, s.inchikey,
  s.rxcui, s.atc_codes AS "atcCodes", s.source`;

/** Substances by UNII (or provisional key), in key order. */
export function createSubstanceLoader(db: Queryable) {
  return new DataLoader<string, SubstanceRow | null>(async (keys) => {
    const { rows } = await db.query<SubstanceRow>(`SELECT ${SUBSTANCE_COLUMNS} FROM substances s WHERE s.unii = ANY($1)`, [keys]);
    const byKey = new Map(rows.map((r) => [r.unii, r]));
    return keys.map((k) => byKey.get(k) ?? null);
  });
}

/** Salts and esters of each moiety (the moiety itself excluded), by name. */
export function createSaltLoader(db: Queryable) {
  return new DataLoader<string, Array<{ unii: string; name: string }>>(async (moieties) => {
    const { rows } = await db.query<{ unii: string; name: string; moiety: string }>(
      `SELECT unii, name, moiety_unii AS moiety FROM substances WHERE moiety_unii = ANY($1) AND unii <> moiety_unii ORDER BY moiety_unii, name`,
      [moieties],
    );
    return moieties.map((m) => rows.filter((r) => r.moiety === m).map(({ unii, name }) => ({ unii, name })));
  });
}

/** Classes (non-ATC axes) of each substance. */
export function createSubstanceClassLoader(db: Queryable) {
  return new DataLoader<string, Array<{ system: string; code: string; label: string }>>(async (uniis) => {
    const { rows } = await db.query<{ unii: string; system: string; code: string; label: string }>(
      `SELECT sc.unii, sc.system, sc.code, c.label FROM substance_classes sc JOIN classes c ON c.system = sc.system AND c.code = sc.code
        WHERE sc.unii = ANY($1) ORDER BY sc.unii, sc.system, sc.code`,
      [uniis],
    );
    return uniis.map((u) => rows.filter((r) => r.unii === u).map(({ system, code, label }) => ({ system, code, label })));
  });
}

type MoietyRow = Partial<ProductRecord> & { moiety: string; n: string; markets: string[] };

/**
 * Per moiety: exact product count, markets and the first products by country and name. Products
 * of every register count: keys folding to the moiety, and keys linked to the same identity
 * (`substance_links`, docs/catalogue.md "Substance identity").
 */
export function createMoietyDrugsLoader(db: Queryable) {
  return new DataLoader<string, MoietyDrugs>(async (moieties) => {
    const { rows } = await db.query<MoietyRow>(
      `WITH want AS (
         SELECT k AS moiety, k AS target FROM unnest($1::text[]) AS k
         UNION SELECT l.unii, l.identity FROM substance_links l WHERE l.unii = ANY($1) AND l.identity IS NOT NULL),
       keys AS (
         SELECT w.moiety, s.unii FROM want w JOIN substances s ON s.moiety_unii = w.target
         UNION SELECT w.moiety, l.unii FROM want w JOIN substance_links l ON l.identity = w.target),
       prod AS (
         SELECT DISTINCT k.moiety, p.id, p.country, lower(p.product_name) AS sort_name
           FROM keys k JOIN product_ingredients pi ON pi.unii = k.unii JOIN products p ON p.id = pi.product_id
          WHERE p.searchable),
       agg AS (SELECT moiety, count(*) AS n, array_agg(DISTINCT country ORDER BY country) AS markets FROM prod GROUP BY moiety),
       ranked AS (SELECT moiety, id, row_number() OVER (PARTITION BY moiety ORDER BY country, sort_name, id) AS rn FROM prod)
       SELECT a.moiety, a.n, a.markets, ${PRODUCT_COLUMNS} FROM agg a
         JOIN ranked r ON r.moiety = a.moiety AND r.rn <= $2 JOIN products p ON p.id = r.id
        ORDER BY a.moiety, r.rn`,
      [moieties, SUBSTANCE_DRUG_SAMPLE],
    );
    return moieties.map((m) => {
      const mine = rows.filter((r) => r.moiety === m);
      return {
        count: mine.length ? Number(mine[0]!.n) : 0,
        markets: mine[0]?.markets ?? [],
        drugs: mine.map((r) => toDrug(r as ProductRecord)),
      };
    });
  });
}

export interface XrefMatch {
  substance: SubstanceRow;
  matchedBy: 'name' | 'synonym' | 'similar';
}

/**
 * A substance name → the substance: exact preferred name first, then a name in any
 * vocabulary (USAN, BAN, local languages …), then the closest trigram match. Moieties win
 * over their salts and UNIIs over provisional keys when several rows share the name.
 */
export async function resolveSubstanceName(db: Queryable, name: string): Promise<XrefMatch | null> {
  const text = name.trim().toLowerCase();
  const exact = await db.query<SubstanceRow & { preferred: boolean }>(
    `SELECT ${SUBSTANCE_COLUMNS}, lower(s.name) = $1 AS preferred FROM substances s
      WHERE lower(s.name) = $1 OR EXISTS (SELECT 1 FROM jsonb_each_text(s.names) AS n WHERE lower(n.value) = $1)
      ORDER BY lower(s.name) = $1 DESC, s.provisional, s.unii = s.moiety_unii DESC, s.unii LIMIT 1`,
    [text],
  );
  const hit = exact.rows[0];
  if (hit) {
    const { preferred, ...substance } = hit;
    return { substance, matchedBy: preferred ? 'name' : 'synonym' };
  }
  const similar = await db.query<SubstanceRow>(
    `SELECT ${SUBSTANCE_COLUMNS} FROM substances s WHERE lower(s.name) % $1
      ORDER BY similarity(lower(s.name), $1) DESC, s.provisional, s.unii LIMIT 1`,
    [text],
  );
  return similar.rows[0] ? { substance: similar.rows[0], matchedBy: 'similar' } : null;
}
