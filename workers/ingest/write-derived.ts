/**
 * Product signatures depend on substance moieties, which may belong to another source. The
 * product plan computes them for its own products (from `moietiesFor`); when a substance
 * changes, products of other sources that use it are refreshed here. Signatures are not part
 * of any image, so refreshing them writes no change record.
 */
import type { Queryable } from '../../platform/db.ts';
import { medicineSignature, substanceSignature } from './signatures.ts';
import type { MoietyStrength } from './signatures.ts';
import type { ProductEntry } from './snapshot.ts';

interface ProductIngredients {
  id: string;
  dose_form: string | null;
  route: string | null;
  ingredients: Array<{ moiety: string; value: number | null; unit: string | null }>;
}

// The identity a signature uses for an ingredient: the linked identity of its moiety, else its
// own (salt names fold by name), else its moiety key (see write-links.ts, docs/catalogue.md).
const IDENTITY = 'coalesce(lm.identity, li.identity, s.moiety_unii, i.unii)';
const IDENTITY_JOINS = `LEFT JOIN substances s ON s.unii = i.unii
     LEFT JOIN substance_links li ON li.unii = i.unii LEFT JOIN substance_links lm ON lm.unii = s.moiety_unii`;

/** Signature identity of every ingredient key of a chunk of products. */
export type MoietyResolver = (products: readonly ProductEntry[]) => Promise<Map<string, string>>;

/**
 * Resolves signature identities per chunk: stored rows, overridden by the moieties this
 * ingest writes (`pending`, mapped through the stored links, read once; write-links.ts
 * corrects those whose link this ingest changes).
 */
export async function moietyResolver(tx: Queryable, pending: ReadonlyMap<string, string>): Promise<MoietyResolver> {
  const { rows: links } = await tx.query<{ unii: string; identity: string }>(
    'SELECT unii, identity FROM substance_links WHERE unii = ANY($1::text[]) AND identity IS NOT NULL', [[...pending.keys(), ...pending.values()]]);
  const linked = new Map(links.map((l) => [l.unii, l.identity]));
  const written = [...pending].map(([key, moiety]) => [key, linked.get(moiety) ?? linked.get(key) ?? moiety] as const);
  return async (products) => {
    const uniis = [...new Set(products.flatMap((p) => p.ingredients.map((i) => i.unii)))];
    const { rows } = await tx.query<{ unii: string; moiety: string }>(
      `SELECT i.unii, ${IDENTITY} AS moiety FROM unnest($1::text[]) AS i(unii) ${IDENTITY_JOINS} WHERE s.unii IS NOT NULL`, [uniis]);
    return new Map([...rows.map((r) => [r.unii, r.moiety] as const), ...written]);
  };
}

// Products are read through a cursor a page at a time, so a substance used by a whole register
// (every NDC product of a first ingest) never loads that register at once. The cursor reads the
// transaction's state when it is declared: the pages' own updates do not disturb it.
const SIGNATURE_PAGE = 5000;

const PRODUCTS_USING = `
  SELECT p.id, p.dose_form, p.route,
         jsonb_agg(jsonb_build_object('moiety', ${IDENTITY}, 'value', i.strength_value, 'unit', i.strength_unit)
                   ORDER BY i.position) AS ingredients
  FROM products p
  JOIN product_ingredients i ON i.product_id = p.id
  ${IDENTITY_JOINS}
  WHERE p.id IN (SELECT product_id FROM product_ingredients WHERE unii = ANY($1::text[]))
    AND p.source IS DISTINCT FROM $2::text
  GROUP BY p.id`;

const UPDATE_SIGNATURES = `
  UPDATE products p SET substance_signature = s.substance, medicine_signature = s.medicine
  FROM unnest($1::uuid[], $2::text[], $3::text[]) AS s(id, substance, medicine)
  WHERE p.id = s.id AND (p.substance_signature IS DISTINCT FROM s.substance OR p.medicine_signature IS DISTINCT FROM s.medicine)`;

/**
 * Recomputes the signatures of every product using one of `uniis`, except those of
 * `skipSource` (the snapshot just written, whose products got fresh ones). Returns how many.
 */
export async function refreshSignatures(tx: Queryable, uniis: readonly string[], skipSource: string | null): Promise<number> {
  if (uniis.length === 0) return 0;
  await tx.query(`DECLARE drugref_signatures NO SCROLL CURSOR FOR ${PRODUCTS_USING}`, [uniis, skipSource]);
  let count = 0;
  for (;;) {
    const { rows } = await tx.query<ProductIngredients>(`FETCH ${SIGNATURE_PAGE} FROM drugref_signatures`);
    if (rows.length > 0) {
      const signatures = rows.map((r) => {
        const parts: MoietyStrength[] = r.ingredients.map((i) => ({ moiety: i.moiety, value: i.value === null ? null : Number(i.value), unit: i.unit }));
        return { id: r.id, substance: substanceSignature(parts), medicine: medicineSignature(parts, r.dose_form, r.route) };
      });
      await tx.query(UPDATE_SIGNATURES, [signatures.map((s) => s.id), signatures.map((s) => s.substance), signatures.map((s) => s.medicine)]);
      count += rows.length;
    }
    if (rows.length < SIGNATURE_PAGE) break;
  }
  // An error above aborts the transaction, which closes the cursor with it.
  await tx.query('CLOSE drugref_signatures');
  return count;
}
