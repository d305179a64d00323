/**
 * The BAG's group price table given alone: it says what each pharma group costs, not which
 * packs are in a group. Which packs are comes from the manufacturers' article lists, and a
 * catalogue that was once given them holds those packs (source `ch-sl-groups`, keyed by GTIN
 * or `pharmacode:<n>`, each with its group code), merged with the Zur Rose and Refdata pack of
 * the same GTIN or pharmacode. So a new group price table re-prices the packs the catalogue
 * already holds, and states every one of them again: nothing is deleted, whatever the table
 * leaves out.
 */
import type { Queryable } from '../../../platform/db.ts';
import type { PackEntry, ProductEntry } from '../snapshot.ts';

/** A pharma group's price and limitation, as the group table states them. */
export interface Group {
  price: number;
  description: string;
  limitation: string;
}

/** Source id the held packs are stored under. */
const SOURCE = 'ch-sl-groups';

const HELD = `
  SELECT p.record AS product, k.record AS pack
    FROM products p JOIN packs k ON k.product_id = p.id
   WHERE p.source = $1 AND k.source = $1
   ORDER BY p.natural_key, k.natural_key`;

/**
 * The products and packs the catalogue holds for the SL group prices, as their records were
 * stored (the pack's `product_key` dropped): the article lists last given.
 */
export async function heldGroupProducts(db: Queryable): Promise<ProductEntry[]> {
  const { rows } = await db.query<{ product: ProductEntry; pack: PackEntry & { product_key?: string } }>(HELD, [SOURCE]);
  const products = new Map<string, ProductEntry>();
  for (const row of rows) {
    const { product_key: _productKey, ...pack } = row.pack;
    let product = products.get(row.product.key);
    if (!product) products.set(row.product.key, (product = { ...row.product, packs: [] }));
    product.packs.push(pack);
  }
  return [...products.values()];
}

/** Limitation codes (`L1, L2`) as a pack's SL limitations. */
export function limitationsOf(group: Group): Array<{ code: string; text: string; level: 'pack' }> {
  return group.limitation ? group.limitation.split(/\s*,\s*/).map((code) => ({ code, text: '', level: 'pack' as const })) : [];
}

/**
 * One held pack at its group's new price. The pack held `units × old group price` (Weleda's
 * `8x2070631`) or a pack price its list stated (WALA's `CSL 70.01.`): a whole multiple is
 * kept as that many units at the new price; a stated price stays as stated.
 */
function reprice(pack: PackEntry, group: Group): PackEntry {
  const old = pack.sl?.group_price;
  const prices = (pack.prices ?? []).map((price) => {
    if (price.kind !== 'group' || !old) return price;
    const units = price.amount / old;
    const whole = Math.round(units);
    if (whole < 1 || Math.abs(units - whole) > 1e-6) return price;
    return { ...price, amount: Math.round(group.price * whole * 100) / 100 };
  });
  const limitations = limitationsOf(group);
  const { limitations: _old, ...sl } = pack.sl ?? { listed: true };
  return { ...pack, prices, sl: { ...sl, group_price: group.price, ...(limitations.length ? { limitations } : {}) } };
}

/** How many held packs the table re-priced, and how many it named no group for (left as they were). */
export interface Repriced {
  products: ProductEntry[];
  repriced: number;
  unchanged: number;
}

/** The held products with each pack of a group in `groups` at that group's price; the rest as held. */
export function repriceHeld(held: readonly ProductEntry[], groups: ReadonlyMap<string, Group>): Repriced {
  let repriced = 0;
  let unchanged = 0;
  const products = held.map((product) => ({
    ...product,
    packs: product.packs.map((pack) => {
      const group = pack.sl?.group_code ? groups.get(pack.sl.group_code) : undefined;
      if (!group) {
        unchanged += 1;
        return pack;
      }
      repriced += 1;
      return reprice(pack, group);
    }),
  }));
  return { products, repriced, unchanged };
}
