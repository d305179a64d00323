/**
 * The second demo state, loaded by `drugref demo update` so the change feed moves on
 * demand: price changes in several countries, a few new generics, withdrawn and removed
 * products, and recalls. Expressed as edits to the curated base so that every unchanged
 * row keeps its natural key and content.
 */
import type { Jurisdiction, ProductEntry, RecallEntry } from '../../workers/ingest/snapshot.ts';
import type { CuratedBrand } from './curated.ts';
import type { PriceRule } from './products.ts';

export const UPDATE_PRICE_DATE = '2025-07-01';

/** Price multipliers by country and brand line name. */
export const PRICE_CHANGES: Array<{ country: Jurisdiction; name: string; factor: number }> = [
  { country: 'CH', name: 'Sortis', factor: 0.88 },
  { country: 'CH', name: 'Xarelto', factor: 0.85 },
  { country: 'CH', name: 'Eliquis', factor: 0.95 },
  { country: 'DE', name: 'Pradaxa', factor: 0.92 },
  { country: 'DE', name: 'Eliquis', factor: 1.03 },
  { country: 'FR', name: 'TAHOR', factor: 0.93 },
  { country: 'GB', name: 'Warfarin Teva', factor: 1.12 },
  { country: 'SE', name: 'Waran', factor: 1.04 },
  { country: 'US', name: 'Eliquis', factor: 1.06 },
  { country: 'US', name: 'Xarelto', factor: 1.05 },
];

/** New product lines, appended after the base lines so existing codes do not move. */
export const ADDED: Partial<Record<Jurisdiction, CuratedBrand[]>> = {
  CH: [{ s: 'apixaban', n: 'Apixaban Sandoz', h: 'Sandoz Pharmaceuticals AG', g: true, lim: 'doak', y: 2025 }],
  DE: [{ s: 'apixaban', n: 'Apixaban-ratiopharm', h: 'ratiopharm GmbH', g: true, y: 2025 }],
  FR: [{ s: 'apixaban', n: 'APIXABAN BIOGARAN', h: 'Biogaran', g: true, y: 2025 }],
  GB: [{ s: 'apixaban', n: 'Apixaban Accord', h: 'Accord Healthcare Limited', g: true, y: 2025 }],
  US: [{ s: 'apixaban', n: 'Apixaban', h: 'Micro Labs Limited', g: true, ndc: '42571', y: 2025 }],
};

/** Product lines whose marketing status becomes `withdrawn` (still listed). */
export const WITHDRAWN: Array<{ country: Jurisdiction; name: string }> = [
  { country: 'US', name: 'Coumadin' },
  { country: 'CH', name: 'Zestril' },
  { country: 'DE', name: 'Coumadin' },
];

/** Product lines that disappear from the register (the feed records deletes). */
export const REMOVED: Array<{ country: Jurisdiction; name: string }> = [
  { country: 'CH', name: 'Selipran' },
  { country: 'FR', name: 'DEPRENYL' },
  { country: 'DK', name: 'Ramipril Actavis' },
  { country: 'IT', name: 'Sivastin' },
];

/** Recall notices, tied to the first product of a line and all its packs. */
export const RECALLS: Array<{ country: Jurisdiction; name: string; key: string; published_on: string; reason: string; level: string }> = [
  {
    country: 'US', name: 'Metformin Hydrochloride', key: 'demo-us-recall-2025-0612', published_on: '2025-06-12', level: 'Class II',
    reason: 'N-Nitrosodimethylamine (NDMA) above the acceptable daily intake limit in certain lots (demonstration data).',
  },
  {
    country: 'CH', name: 'Losartan Spirig HC', key: 'demo-ch-recall-2025-0618', published_on: '2025-06-18', level: 'Klasse II',
    reason: 'Nitrosamin-Verunreinigung (NDMA) oberhalb des akzeptablen Grenzwerts in einzelnen Chargen (Demonstrationsdaten).',
  },
  {
    country: 'DE', name: 'Valsartan AbZ', key: 'demo-de-recall-2025-0620', published_on: '2025-06-20', level: 'Klasse II',
    reason: 'N-Nitrosodiethylamin (NDEA) oberhalb des Grenzwerts in einzelnen Chargen (Demonstrationsdaten).',
  },
];

export function updatePriceRule(country: Jurisdiction): PriceRule {
  return (brand) => {
    const change = PRICE_CHANGES.find((c) => c.country === country && c.name === brand.n);
    return change ? { factor: change.factor, validFrom: UPDATE_PRICE_DATE } : undefined;
  };
}

/** Names a product line by its product name prefix (brand or generic name). */
const ofLine = (p: ProductEntry, name: string): boolean => p.product_name.startsWith(`${name} `);

/** Applies withdrawals and removals to a country's products, in place of the base list. */
export function applyStatusChanges(country: Jurisdiction, products: ProductEntry[]): ProductEntry[] {
  const removed = REMOVED.filter((r) => r.country === country);
  const withdrawn = WITHDRAWN.filter((w) => w.country === country);
  return products
    .filter((p) => !removed.some((r) => ofLine(p, r.name)))
    .map((p) => {
      if (!withdrawn.some((w) => ofLine(p, w.name))) return p;
      return {
        ...p,
        marketing_status: 'withdrawn' as const,
        packs: p.packs.map((pack) => ({ ...pack, marketing_status: 'withdrawn' as const })),
      };
    });
}

export function recallsFor(country: Jurisdiction, products: ProductEntry[]): RecallEntry[] {
  return RECALLS.filter((r) => r.country === country).map((r) => {
    const product = products.find((p) => ofLine(p, r.name));
    if (!product) throw new Error(`recall ${r.key}: no ${country} product ${r.name}`);
    return {
      key: r.key, product_key: product.key, country, published_on: r.published_on, reason: r.reason,
      level: r.level, pack_keys: product.packs.map((pack) => pack.key),
    };
  });
}
