/**
 * Columns derived from several records, refreshed after the records are written: a
 * product's signatures (from its ingredients folded to their moieties, which may come from
 * another source's substances) and its reimbursement rate (the highest of its packs').
 * They are not part of any image, so refreshing them writes no change record.
 */
import type { Queryable } from '../../platform/db.ts';
import { medicineSignature, substanceSignature } from './signatures.ts';
import type { MoietyStrength } from './signatures.ts';

interface ProductIngredients {
  id: string;
  dose_form: string | null;
  route: string | null;
  ingredients: Array<{ moiety: string; value: number | null; unit: string | null }>;
}

/** Products (any source) using one of the substances whose rows changed. */
async function productsUsing(tx: Queryable, uniis: string[]): Promise<string[]> {
  if (uniis.length === 0) return [];
  const { rows } = await tx.query<{ product_id: string }>(
    'SELECT DISTINCT product_id FROM product_ingredients WHERE unii = ANY($1::text[])', [uniis]);
  return rows.map((r) => r.product_id);
}

/** Recomputes both signatures of the given products and of every product using `uniis`. */
export async function refreshSignatures(tx: Queryable, productIds: readonly string[], uniis: readonly string[]): Promise<number> {
  const ids = [...new Set([...productIds, ...(await productsUsing(tx, [...uniis]))])];
  if (ids.length === 0) return 0;
  const { rows } = await tx.query<ProductIngredients>(
    `SELECT p.id, p.dose_form, p.route,
            coalesce(jsonb_agg(jsonb_build_object('moiety', coalesce(s.moiety_unii, i.unii), 'value', i.strength_value, 'unit', i.strength_unit)
                               ORDER BY i.position) FILTER (WHERE i.unii IS NOT NULL), '[]') AS ingredients
     FROM products p
     LEFT JOIN product_ingredients i ON i.product_id = p.id
     LEFT JOIN substances s ON s.unii = i.unii
     WHERE p.id = ANY($1::uuid[])
     GROUP BY p.id`,
    [ids],
  );
  const signatures = rows.map((r) => {
    const parts: MoietyStrength[] = r.ingredients.map((i) => ({ moiety: i.moiety, value: i.value === null ? null : Number(i.value), unit: i.unit }));
    return { id: r.id, substance: substanceSignature(parts), medicine: medicineSignature(parts, r.dose_form, r.route) };
  });
  await tx.query(
    `UPDATE products p SET substance_signature = s.substance, medicine_signature = s.medicine
     FROM unnest($1::uuid[], $2::text[], $3::text[]) AS s(id, substance, medicine)
     WHERE p.id = s.id AND (p.substance_signature IS DISTINCT FROM s.substance OR p.medicine_signature IS DISTINCT FROM s.medicine)`,
    [signatures.map((s) => s.id), signatures.map((s) => s.substance), signatures.map((s) => s.medicine)],
  );
  return signatures.length;
}

/** A product's rate is the highest statutory rate among its packs (FR: 15, 30, 65, 100). */
export async function refreshReimbursementRates(tx: Queryable, productIds: readonly string[]): Promise<void> {
  if (productIds.length === 0) return;
  await tx.query(
    `UPDATE products p SET reimbursement_rate_percent = r.rate
     FROM (SELECT p2.id, max((k.record->>'reimbursement_rate_percent')::numeric) AS rate
           FROM products p2 LEFT JOIN packs k ON k.product_id = p2.id
           WHERE p2.id = ANY($1::uuid[]) GROUP BY p2.id) AS r
     WHERE p.id = r.id AND p.reimbursement_rate_percent IS DISTINCT FROM r.rate`,
    [[...new Set(productIds)]],
  );
}
