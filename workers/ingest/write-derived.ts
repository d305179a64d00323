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

/** Active moiety of every ingredient UNII of `products`: stored rows, overridden by what this ingest writes. */
export async function moietiesFor(tx: Queryable, products: readonly ProductEntry[], pending: ReadonlyMap<string, string>): Promise<Map<string, string>> {
  const uniis = [...new Set(products.flatMap((p) => p.ingredients.map((i) => i.unii)))];
  const { rows } = await tx.query<{ unii: string; moiety_unii: string }>(
    'SELECT unii, moiety_unii FROM substances WHERE unii = ANY($1::text[])', [uniis]);
  return new Map([...rows.map((r) => [r.unii, r.moiety_unii] as const), ...pending]);
}

/** Recomputes the signatures of every product using one of `uniis`, except those in `skip` (written with fresh ones). */
export async function refreshSignatures(tx: Queryable, uniis: readonly string[], skip: ReadonlySet<string>): Promise<number> {
  if (uniis.length === 0) return 0;
  const { rows } = await tx.query<ProductIngredients>(
    `SELECT p.id, p.dose_form, p.route,
            jsonb_agg(jsonb_build_object('moiety', coalesce(s.moiety_unii, i.unii), 'value', i.strength_value, 'unit', i.strength_unit)
                      ORDER BY i.position) AS ingredients
     FROM products p
     JOIN product_ingredients i ON i.product_id = p.id
     LEFT JOIN substances s ON s.unii = i.unii
     WHERE p.id IN (SELECT product_id FROM product_ingredients WHERE unii = ANY($1::text[]))
     GROUP BY p.id`,
    [uniis],
  );
  const signatures = rows.filter((r) => !skip.has(r.id)).map((r) => {
    const parts: MoietyStrength[] = r.ingredients.map((i) => ({ moiety: i.moiety, value: i.value === null ? null : Number(i.value), unit: i.unit }));
    return { id: r.id, substance: substanceSignature(parts), medicine: medicineSignature(parts, r.dose_form, r.route) };
  });
  if (signatures.length === 0) return 0;
  await tx.query(
    `UPDATE products p SET substance_signature = s.substance, medicine_signature = s.medicine
     FROM unnest($1::uuid[], $2::text[], $3::text[]) AS s(id, substance, medicine)
     WHERE p.id = s.id AND (p.substance_signature IS DISTINCT FROM s.substance OR p.medicine_signature IS DISTINCT FROM s.medicine)`,
    [signatures.map((s) => s.id), signatures.map((s) => s.substance), signatures.map((s) => s.medicine)],
  );
  return signatures.length;
}
