/**
 * ATC codes of products whose register gives none, derived from their substances in ONE
 * set-based statement per ingest (docs/catalogue.md, "ATC codes derived from substances"):
 *
 * 1. `signature`: the one code the register-coded products of the same medicine signature
 *    agree on, else of the same substance signature (with the linked substances' own codes)
 *    unless WHO names the substance under several codes (there strength decides, not a name);
 * 2. else WHO's level-5 names (`atc_names`, written by write-atc-names.ts): a single
 *    substance whose name, in any language a register gave, normalises to one WHO name
 *    (`inn_name`, `inn_translated`, `inn_salt_folded`); a combination only when every
 *    component fills one part of a combination name and the route is known and fits
 *    (`combination`); a substance under several codes decided by route group, WHO's DDD
 *    routes and strength (`strength_route`), else unlinked.
 *
 * A register's own code always wins: such products are never targets.
 */
import type { Queryable } from '../../platform/db.ts';
import { linkAtcRules } from './link-atc-rules.ts';

// Products to (re)link: those sharing a substance signature with the snapshot's products or
// with products of touched substances; all of them when WHO's names changed ($3).
const TARGETS = `
  seed AS (
    SELECT DISTINCT substance_signature AS ss FROM products
     WHERE substance_signature IS NOT NULL
       AND ($3::boolean OR source = $1::text OR id IN (SELECT product_id FROM product_ingredients WHERE unii = ANY($2::text[])))),
  target AS (
    SELECT p.id, p.substance_signature AS ss, p.medicine_signature AS ms, p.route, p.dose_form, p.product_name, p.record FROM products p
     WHERE p.substance_signature IN (SELECT ss FROM seed) AND coalesce(p.record->>'atc_code', '') = '')`;

const BY_SIGNATURE = `
  reg AS (
    SELECT q.substance_signature AS ss, q.medicine_signature AS ms, upper(q.record->>'atc_code') AS atc FROM products q
     WHERE q.substance_signature IN (SELECT ss FROM seed) AND length(q.record->>'atc_code') = 7),
  own AS (
    SELECT x.ss, unnest(s.atc_codes) AS atc FROM seed x JOIN substance_links l ON l.identity = x.ss JOIN substances s ON s.unii = l.unii
    UNION ALL SELECT x.ss, unnest(s.atc_codes) FROM seed x JOIN substances s ON s.unii = x.ss),
  by_medicine AS (SELECT ms, min(atc) AS atc FROM reg GROUP BY ms HAVING count(DISTINCT atc) = 1),
  by_substance AS (
    SELECT ss, min(atc) AS atc FROM (SELECT ss, atc FROM reg UNION SELECT ss, atc FROM own WHERE length(atc) = 7) a
     GROUP BY ss HAVING count(DISTINCT atc) = 1)`;

// Every key whose names stand for an ingredient: its own, its moiety's, and those of every key
// linked to the same identity (another register's names of the same substance). Names are
// matched once per substance key, then joined to the products that use it.
const INGREDIENT_NAMES = `
  comp AS (SELECT DISTINCT t.id, pi.unii AS comp FROM target t JOIN product_ingredients pi ON pi.product_id = t.id),
  ncomp AS (SELECT id, count(*) AS n FROM comp GROUP BY id),
  sub AS (SELECT DISTINCT c.comp, s.moiety_unii FROM comp c JOIN substances s ON s.unii = c.comp),
  sub_key AS (
    SELECT comp, comp AS k FROM sub UNION SELECT comp, moiety_unii FROM sub
    UNION SELECT s.comp, o.unii FROM sub s JOIN substance_links l ON l.unii IN (s.comp, s.moiety_unii)
      JOIN substance_links o ON o.identity = l.identity),
  ing AS (SELECT DISTINCT k.comp, n.name_key, n.salt_folded, n.curated, n.raw FROM sub_key k JOIN substance_names n ON n.unii = k.k)`;

// Codes every part of whose WHO name is filled by a distinct component, all components used.
const CANDIDATES = `
  sub_hit AS (
    SELECT i.comp, a.code, a.kind, a.slot, a.slots,
           bool_or(NOT i.salt_folded AND NOT i.curated AND trim(regexp_replace(lower(i.raw), '[^a-z0-9]+', ' ', 'g')) = a.plain) AS exact,
           bool_or(NOT i.salt_folded) AS unsalted
      FROM ing i JOIN atc_names a ON a.name_key = i.name_key GROUP BY 1, 2, 3, 4, 5),
  hit AS (SELECT c.id, h.code, h.kind, h.slot, h.slots, c.comp, h.exact, h.unsalted FROM comp c JOIN sub_hit h ON h.comp = c.comp),
  cand AS (
    SELECT h.id, h.code, min(h.kind) AS kind,
           CASE WHEN min(h.kind) = 'combination' THEN 'combination' WHEN bool_or(h.exact) THEN 'inn_name'
                WHEN bool_and(h.unsalted) THEN 'inn_translated' ELSE 'inn_salt_folded' END AS basis
      FROM hit h JOIN ncomp c ON c.id = h.id GROUP BY h.id, h.code, c.n
    HAVING count(DISTINCT h.slot) = max(h.slots) AND count(DISTINCT h.comp) = max(h.slots) AND c.n = max(h.slots)),
  ncand AS (SELECT id, count(*) AS n FROM cand GROUP BY id)`;

// The product's route class from its route, else dose form, else name; its moiety strength in mg.
const PRODUCT_FACTS = `
  rules AS (SELECT $4::jsonb AS j),
  route AS MATERIALIZED (
    SELECT t.id, r.cls, r.who FROM target t LEFT JOIN LATERAL (
      SELECT x.cls, x.who FROM rules, jsonb_to_recordset(rules.j->'routes') AS x(cls text, pattern text, who text, ord int),
             (VALUES (1, t.route), (2, t.dose_form), (3, t.product_name)) AS f(rank, text)
       WHERE lower(f.text) ~ x.pattern ORDER BY f.rank, x.ord LIMIT 1) r ON true
     WHERE t.id IN (SELECT id FROM cand)),
  strength AS MATERIALIZED (
    SELECT t.id, max(coalesce(e->'moiety'->>'strength_value', e->>'strength_value')::numeric
             * CASE lower(coalesce(e->'moiety'->>'strength_unit', e->>'strength_unit'))
                 WHEN 'mg' THEN 1 WHEN 'g' THEN 1000 WHEN 'µg' THEN 0.001 WHEN 'mcg' THEN 0.001 WHEN 'microgrammes' THEN 0.001 END) AS mg
      FROM target t CROSS JOIN LATERAL jsonb_array_elements(coalesce(t.record->'ingredients', '[]'::jsonb)) AS e
     WHERE t.id IN (SELECT id FROM ncand WHERE n > 1) AND jsonb_typeof(coalesce(e->'moiety'->'strength_value', e->'strength_value')) = 'number'
     GROUP BY t.id)`;

// Codes that fit the route (local groups only for their route); then DDD routes, then strength.
// Only joins on the CTEs (no correlated subquery over one): the pass stays linear in products.
const DECIDE = `
  strength_rule AS (
    SELECT s.* FROM rules, jsonb_to_recordset(rules.j->'strength') AS s(key text, code text, cls text, min_mg numeric, max_mg numeric)),
  strength_hit AS MATERIALIZED (
    SELECT DISTINCT c.id, c.code FROM cand c JOIN route r ON r.id = c.id JOIN strength st ON st.id = c.id
      JOIN strength_rule s ON s.code = c.code AND s.cls = r.cls AND st.mg >= coalesce(s.min_mg, 0) AND st.mg <= coalesce(s.max_mg, st.mg)
      JOIN comp cc ON cc.id = c.id JOIN ing ON ing.comp = cc.comp AND ing.name_key = s.key),
  group_route AS (
    SELECT g.prefix, g.cls FROM rules, jsonb_to_recordset(rules.j->'groups') AS g(prefix text, cls text)),
  code_group AS (
    SELECT DISTINCT ON (c.code) c.code, g.cls FROM (SELECT DISTINCT code FROM cand) c
      JOIN group_route g ON c.code LIKE g.prefix || '%' ORDER BY c.code, length(g.prefix) DESC),
  systemic AS (SELECT jsonb_array_elements_text(j->'systemic') AS cls FROM rules),
  fit AS (
    SELECT c.id, c.code, c.kind, c.basis, r.cls,
           (r.who IS NULL OR NOT EXISTS (SELECT 1 FROM atc_ddd d WHERE d.code = c.code)
              OR EXISTS (SELECT 1 FROM atc_ddd d WHERE d.code = c.code AND d.route LIKE r.who || '%')) AS ddd_ok,
           sh.id IS NOT NULL AS strength_ok
      FROM cand c JOIN route r ON r.id = c.id
      LEFT JOIN code_group grp ON grp.code = c.code LEFT JOIN strength_hit sh ON sh.id = c.id AND sh.code = c.code
      LEFT JOIN systemic sy ON sy.cls = r.cls
     WHERE (c.kind = 'single' OR r.cls IS NOT NULL)
       AND (r.cls IS NULL OR coalesce(grp.cls, 'systemic') = CASE WHEN sy.cls IS NOT NULL THEN 'systemic' ELSE r.cls END)),
  scored AS (
    SELECT f.*, count(*) OVER w AS n1, count(*) FILTER (WHERE f.ddd_ok) OVER w AS n2, count(*) FILTER (WHERE f.strength_ok) OVER w AS n3
      FROM fit f WINDOW w AS (PARTITION BY f.id)),
  inn AS (
    SELECT s.id, s.code, CASE WHEN s.n1 = 1 AND n.n = 1 THEN s.basis ELSE 'strength_route' END AS basis
      FROM scored s JOIN ncand n ON n.id = s.id
     WHERE s.n1 = 1 OR (s.n2 = 1 AND s.ddd_ok) OR (s.n2 <> 1 AND s.n3 = 1 AND s.strength_ok))`;

const LINK_ATC = `
  WITH ${TARGETS}, ${BY_SIGNATURE}, ${INGREDIENT_NAMES}, ${CANDIDATES}, ${PRODUCT_FACTS}, ${DECIDE},
  derived AS (
    SELECT t.id, coalesce(m.atc, s.atc, i.code) AS atc,
           CASE WHEN m.atc IS NOT NULL THEN 'signature_medicine' WHEN s.atc IS NOT NULL THEN 'signature' ELSE i.basis END AS how
      FROM target t LEFT JOIN by_medicine m ON m.ms = t.ms LEFT JOIN inn i ON i.id = t.id LEFT JOIN ncand n ON n.id = t.id
      -- Where WHO lists the substance under several codes, one register's code for another strength says nothing.
      LEFT JOIN by_substance s ON s.ss = t.ss AND coalesce(n.n, 0) <= 1),
  settled AS (
    SELECT d.id, d.atc, CASE WHEN d.how = 'signature_medicine' THEN 'signature' ELSE d.how END AS basis,
           (r.j->'confidence'->>d.how)::numeric AS confidence FROM derived d CROSS JOIN rules r)
  UPDATE products p SET atc_code = d.atc, atc_code_linked = d.atc IS NOT NULL, atc_code_basis = d.basis, atc_code_confidence = d.confidence
    FROM settled d
   WHERE p.id = d.id AND (p.atc_code IS DISTINCT FROM d.atc OR p.atc_code_linked <> (d.atc IS NOT NULL)
      OR p.atc_code_basis IS DISTINCT FROM d.basis OR p.atc_code_confidence IS DISTINCT FROM d.confidence)`;

// A product written by this ingest keeps its register's code; a stale linked code is cleared.
const CLEAR_ATC = `
  UPDATE products SET atc_code_linked = false, atc_code_basis = NULL, atc_code_confidence = NULL,
         atc_code = upper(nullif(record->>'atc_code', ''))
   WHERE source = $1 AND atc_code_linked AND (coalesce(record->>'atc_code', '') <> '' OR substance_signature IS NULL)`;

/** Clears linked codes of `source`'s products that now carry a register code or no substances. */
export async function clearLinkedAtc(tx: Queryable, source: string): Promise<void> {
  await tx.query(CLEAR_ATC, [source]);
}

/**
 * Derives the ATC codes of products without a register code: those sharing a substance
 * signature with `source`'s products or with products of the `touched` substance keys, or every
 * such product when `all` (WHO's names changed).
 */
export async function linkAtcCodes(tx: Queryable, source: string | null, touched: readonly string[], all: boolean): Promise<void> {
  // The planner cannot estimate the CTEs (a jsonb predicate picks the targets) and guesses one
  // row each, which makes nested loops quadratic in products; hash joins keep the pass linear.
  // SET LOCAL is undone at once, so the rest of the ingest's transaction plans as before.
  await tx.query('SET LOCAL enable_nestloop = off');
  try {
    await tx.query(LINK_ATC, [source, [...touched], all, linkAtcRules()]);
  } finally {
    await tx.query('SET LOCAL enable_nestloop = on');
  }
}
