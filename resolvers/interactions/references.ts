/**
 * Drug references (uuid, any pack or registration code, UNII, RxCUI, ATC code or name) →
 * active moieties and their ATC codes, for a whole list in ONE round trip. Codes are read
 * with the catalogue's own `detectCodes` / `normaliseIdentifier`, so a code resolves here
 * exactly as it does on /v1/drugs and /v1/drugs/lookup. Salts fold to their moiety.
 */
import type { Queryable } from '../../platform/db.ts';
import { detectCodes, normaliseIdentifier } from '../../vocabulary/codes.ts';
import { isUuid } from '../catalogue/drug-rows.ts';
import { innKey } from '../../vocabulary/substance-names.ts';

/** A reference as the client sends it: a string, or an explicit `{ system, code }`. */
export type DrugReference = string | { system: string; code: string };

/** One thing a reference met: a product (by id, code or name), a substance or an ATC node. */
export interface ResolvedMatch {
  kind: 'product' | 'substance' | 'atc';
  /** Product uuid, substance key (UNII or provisional key) or ATC code. */
  id: string;
  name: string;
  atcCodes: string[];
}

/** What one reference resolved to. */
export interface ResolvedReference {
  index: number;
  reference: string;
  resolved: boolean;
  /**
   * How it matched: id, a code system, unii, rxcui, atc, atc_class, substance_name, inn_name
   * (the normalised INN name of any register's substance: `metformine`, `Metformini hydrochloridum`),
   * atc_name (WHO's level-5 name, in any language drugref reads: `Acetylsalicylsäure`), product_name.
   */
  matchedBy: string | null;
  label: string | null;
  substances: Array<{ unii: string; name: string }>;
  /** Level-5 ATC codes of its moieties (or the ATC class, for `atc_class`). */
  atcCodes: string[];
  /** What the reference met: each product, substance or ATC node with the codes it gave. */
  matches: ResolvedMatch[];
  /** Why it did not resolve. */
  reason: string | null;
}

interface Ref { idx: number; kind: string; system: string | null; code: string }

/** Stored systems a lookup reads (`ean` and `gtin` are one key), as in catalogue/lookup.ts. */
const SAME_KEY: Record<string, string[]> = { gtin: ['gtin', 'ean'], ean: ['ean', 'gtin'] };

function printable(ref: DrugReference): string {
  return typeof ref === 'string' ? ref : `${ref.system}:${ref.code}`;
}

/** Every reading of one reference as rows for the resolution query. */
function readingsOf(ref: DrugReference, idx: number, allowClasses: boolean): Ref[] {
  if (typeof ref !== 'string') {
    const code = normaliseIdentifier(ref.system, ref.code);
    return code === null ? [] : (SAME_KEY[ref.system] ?? [ref.system]).map((system) => ({ idx, kind: 'ident', system, code }));
  }
  const text = ref.trim();
  if (isUuid(text)) return [{ idx, kind: 'id', system: null, code: text.toLowerCase() }];
  const codes = detectCodes(text).flatMap((c): Ref[] => {
    if (c.kind === 'atc') return [{ idx, kind: 'atc', system: null, code: c.code }];
    if (c.kind === 'atc_class') return allowClasses ? [{ idx, kind: 'atc_class', system: null, code: c.code }] : [];
    if (c.kind === 'unii' || c.kind === 'rxcui') return [{ idx, kind: c.kind, system: null, code: c.code }];
    return [{ idx, kind: 'ident', system: c.system, code: c.code }];
  });
  // A word that is also shaped like a code (a UNII-like brand) is tried as a name too.
  const inn = innKey(text);
  return [...codes, { idx, kind: 'name', system: null, code: text.toLowerCase() }, ...(inn ? [{ idx, kind: 'inn', system: null, code: inn }] : [])];
}

// Moieties reached from products (by id, identifier or product/brand name), from substances
// (UNII, RxCUI, any of their names in any language, their normalised INN name) and from ATC
// codes and WHO's level-5 names. A moiety's codes are its own, its linked identity's
// (`linked_atc_codes`, migrations/0620), with WHO's level-5 names of its names
// (`substance_atc_codes`, migrations/0860). A product with an ATC code (the register's or a
// derived one) gives its moieties' linked codes, else its own; a product without one falls
// through to its moieties' codes, WHO's names included. Each hit says what the
// input met (`kind`, `ref_id`, `ref_name`). One statement, so a list costs one round trip.
const RESOLVE = `
WITH refs AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(idx int, kind text, system text, code text)),
prod AS (
  SELECT r.idx, p.id, 'id' AS how FROM refs r JOIN products p ON r.kind = 'id' AND p.id::text = r.code
  UNION SELECT r.idx, i.drug_id, r.system FROM refs r JOIN identifiers i ON r.kind = 'ident' AND i.system = r.system AND i.code = r.code
  UNION SELECT r.idx, p.id, 'product_name' FROM refs r JOIN products p
    ON r.kind = 'name' AND (lower(p.product_name) = r.code OR lower(p.brand) = r.code)),
moiety AS (
  SELECT pr.idx, pr.how, pr.id, m.unii, m.name, m.atc_codes AS own, linked_atc_codes(m.unii, m.atc_codes) AS atc_codes FROM prod pr
    JOIN product_ingredients pi ON pi.product_id = pr.id JOIN substances s ON s.unii = pi.unii JOIN substances m ON m.unii = s.moiety_unii),
hits AS (
  SELECT mo.idx, mo.how, 'product' AS kind, mo.id::text AS ref_id, p.product_name AS ref_name, mo.unii, mo.name, mo.atc_codes
    FROM moiety mo JOIN products p ON p.id = mo.id WHERE p.atc_code IS NOT NULL
  UNION ALL SELECT pr.idx, pr.how, 'product', p.id::text, p.product_name, NULL, p.product_name, ARRAY[p.atc_code] FROM prod pr JOIN products p ON p.id = pr.id
    WHERE p.atc_code IS NOT NULL AND NOT EXISTS (SELECT 1 FROM moiety mo WHERE mo.idx = pr.idx AND mo.id = pr.id AND cardinality(mo.atc_codes) > 0)
  UNION ALL SELECT mo.idx, mo.how, 'product', mo.id::text, p.product_name, mo.unii, mo.name, substance_atc_codes(mo.unii, mo.own)
    FROM moiety mo JOIN products p ON p.id = mo.id WHERE p.atc_code IS NULL
  UNION ALL SELECT pr.idx, pr.how, 'product', p.id::text, p.product_name, NULL, p.product_name, ARRAY[]::text[] FROM prod pr JOIN products p ON p.id = pr.id
    WHERE p.atc_code IS NULL AND NOT EXISTS (SELECT 1 FROM moiety mo WHERE mo.idx = pr.idx AND mo.id = pr.id)
  UNION ALL SELECT r.idx, r.kind, 'substance', m.unii, m.name, m.unii, m.name, substance_atc_codes(m.unii, m.atc_codes) FROM refs r
    JOIN substances s ON (r.kind = 'unii' AND s.unii = r.code) OR (r.kind = 'rxcui' AND s.rxcui = r.code)
    JOIN substances m ON m.unii = s.moiety_unii
  UNION ALL SELECT r.idx, 'substance_name', 'substance', m.unii, m.name, m.unii, m.name, substance_atc_codes(m.unii, m.atc_codes) FROM refs r
    JOIN substances s ON r.kind = 'name' AND (lower(s.name) = r.code OR EXISTS (SELECT 1 FROM jsonb_each_text(s.names) n WHERE lower(n.value) = r.code))
    JOIN substances m ON m.unii = s.moiety_unii
  UNION ALL SELECT r.idx, 'inn_name', 'substance', m.unii, m.name, m.unii, m.name, substance_atc_codes(m.unii, m.atc_codes) FROM refs r
    JOIN substance_names n ON r.kind = 'inn' AND n.name_key = r.code JOIN substances s ON s.unii = n.unii
    JOIN substances m ON m.unii = s.moiety_unii
  UNION ALL SELECT r.idx, 'atc_name', 'atc', n.code, n.name, NULL, n.name, ARRAY[n.code] FROM refs r
    JOIN atc_names a ON r.kind = 'inn' AND a.kind = 'single' AND a.name_key = r.code JOIN atc_nodes n ON n.code = a.code
  UNION ALL SELECT r.idx, 'atc', 'atc', n.code, n.name, NULL, n.name, ARRAY[n.code] FROM refs r JOIN atc_nodes n ON r.kind = 'atc' AND n.code = r.code AND n.level = 5
  UNION ALL SELECT r.idx, 'atc', 'substance', m.unii, m.name, m.unii, m.name, ARRAY[r.code] FROM refs r
    JOIN substances m ON r.kind = 'atc' AND m.unii = m.moiety_unii AND r.code = ANY(m.atc_codes)
  UNION ALL SELECT r.idx, 'atc_class', 'atc', n.code, n.name, NULL, n.name, ARRAY[n.code] FROM refs r JOIN atc_nodes n ON r.kind = 'atc_class' AND n.code = r.code)
SELECT DISTINCT idx, how, kind, ref_id, ref_name, unii, name, atc_codes FROM hits ORDER BY idx, how, name`;

interface Hit { idx: number; how: string; kind: ResolvedMatch['kind']; ref_id: string; ref_name: string; unii: string | null; name: string; atc_codes: string[] | null }

/** Codes and exact names beat product names, so "warfarin" is the substance, not a product called so. */
const PRECEDENCE = ['id', 'atc', 'atc_class', 'unii', 'rxcui', 'substance_name', 'inn_name', 'atc_name'];

function rank(how: string): number {
  const i = PRECEDENCE.indexOf(how);
  return i === -1 ? (how === 'product_name' ? PRECEDENCE.length + 1 : PRECEDENCE.length) : i;
}

const hasCodes = (h: Hit) => (h.atc_codes ?? []).some((c) => c !== null);

/** What the chosen hits met, one entry per product, substance or ATC node, with its codes. */
function matchesOf(chosen: readonly Hit[]): ResolvedMatch[] {
  const byRef = new Map<string, ResolvedMatch>();
  for (const h of chosen) {
    const key = `${h.kind}|${h.ref_id}`;
    const entry = byRef.get(key) ?? { kind: h.kind, id: h.ref_id, name: h.ref_name, atcCodes: [] };
    entry.atcCodes = [...new Set([...entry.atcCodes, ...(h.atc_codes ?? []).filter((c) => c !== null)])].sort();
    byRef.set(key, entry);
  }
  return [...byRef.values()];
}

function summarise(index: number, reference: string, hits: Hit[]): ResolvedReference {
  if (hits.length === 0) {
    return { index, reference, resolved: false, matchedBy: null, label: null, substances: [], atcCodes: [], matches: [], reason: 'no drug, substance or ATC code matches this reference' };
  }
  // The best reading that reaches an ATC code: a brand whose product has none falls through to
  // its substances, a substance without codes to WHO's name for it.
  const pool = hits.some(hasCodes) ? hits.filter(hasCodes) : hits;
  const best = Math.min(...pool.map((h) => rank(h.how)));
  const chosen = pool.filter((h) => rank(h.how) === best);
  const substances = new Map<string, string>();
  for (const h of chosen) if (h.unii) substances.set(h.unii, h.name);
  const atcCodes = [...new Set(chosen.flatMap((h) => (h.atc_codes ?? []).filter((c) => c !== null)))].sort();
  const labels = [...new Set(chosen.map((h) => h.name))];
  return {
    index, reference, resolved: atcCodes.length > 0, matchedBy: chosen[0]!.how, label: labels.join(' + '),
    substances: [...substances].map(([unii, name]) => ({ unii, name })), atcCodes, matches: matchesOf(chosen),
    reason: atcCodes.length ? null : 'the matched drug has no ATC code',
  };
}

/** Resolves every reference in one round trip; `allowClasses` also accepts ATC class codes (allergies). */
export async function resolveReferences(db: Queryable, refs: readonly DrugReference[], options: { allowClasses?: boolean } = {}): Promise<ResolvedReference[]> {
  const readings = refs.flatMap((ref, idx) => readingsOf(ref, idx, options.allowClasses ?? false));
  const { rows } = readings.length ? await db.query<Hit>(RESOLVE, [JSON.stringify(readings)]) : { rows: [] as Hit[] };
  const byIdx = new Map<number, Hit[]>();
  for (const row of rows) byIdx.set(row.idx, [...(byIdx.get(row.idx) ?? []), row]);
  return refs.map((ref, idx) => summarise(idx, printable(ref), byIdx.get(idx) ?? []));
}
