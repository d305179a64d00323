/**
 * The FEST entries of one ingest (one or several documents) made into the snapshot's products
 * and substances, each entry counted once on its file's RowTally.
 *
 * A whole register (every catalogue drugref reads: KatLegemiddelMerkevare, KatLegemiddelpakning,
 * KatVirkestoffMedStyrke, KatVirkestoff, over all the documents given) is the source: what it
 * leaves out is deleted on ingest, and a reference to an entry it does not hold is malformed.
 *
 * Documents holding only some catalogues (an extract, a FEST web-service answer) are laid over
 * what the catalogue holds (no-fest-held.ts): a merkevare replaces the product's own fields
 * and keeps its packs, a pack joins (or moves to) the merkevare it names, and every held entry
 * the documents do not hold is stated again as stored, so nothing else of the source is
 * deleted. An ingredient whose strength lies in a catalogue not given keeps the held
 * ingredients; a pack whose merkevare is neither given nor held is excluded (`no_merkevare`).
 */
import type { PackEntry, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import { EXCLUDED } from '../row-outcome.ts';
import type { RowTally } from '../row-outcome.ts';
import type { XmlElement } from './xml-records.ts';
import type { HeldFest } from './no-fest-held.ts';
import { FestEntryError, resolveIngredients, substanceOf } from './no-fest-rows.ts';
import type { IngredientRef } from './no-fest-rows.ts';

/** The catalogues that together are the whole register drugref reads. */
export const WHOLE_REGISTER = ['KatLegemiddelMerkevare', 'KatLegemiddelpakning', 'KatVirkestoffMedStyrke', 'KatVirkestoff'] as const;

/** Why a pack of a partial document is left out: its merkevare is neither in the documents nor in the catalogue. */
export const NO_MERKEVARE = 'no_merkevare';

/** A product read, its ingredients still references until every document is read. */
export interface PendingProduct { tally: RowTally; line: number; product: ProductEntry; refs: IngredientRef[] }
/** A pack read, with what it tells its product. */
export interface PendingPack { tally: RowTally; line: number; pack: PackEntry; merkevare: string; reimbursed: boolean; marketed?: string }

/** Everything the documents of one ingest hold, merged. */
export interface FestEntries {
  styrker: Map<string, XmlElement>;
  virkestoffer: Map<string, XmlElement>;
  catalogues: Set<string>;
  products: PendingProduct[];
  packs: PendingPack[];
}

/** True when the catalogues read are the whole register. */
export function isWholeRegister(catalogues: ReadonlySet<string>): boolean {
  return WHOLE_REGISTER.every((c) => catalogues.has(c));
}

/** A held product to lay entries over, its packs and attributes copied so the held map stays as stored. */
function copyOf(product: ProductEntry): ProductEntry {
  return { ...product, packs: [...product.packs], ...(product.attributes ? { attributes: { ...product.attributes } } : {}) };
}

/** Attributes FEST derives from a product's packs, kept from the held product when no pack catalogue is given. */
const FROM_PACKS = ['reimbursable', 'marketed_on'] as const;

function stateProducts(entries: FestEntries, held: HeldFest | null, products: Map<string, ProductEntry>): void {
  const stated = new Set<string>();
  for (const { tally, line, product, refs } of entries.products) {
    if (stated.has(product.key)) { tally.exclude(EXCLUDED.duplicate); continue; }
    const before = held?.products.get(product.key);
    try {
      product.ingredients = resolveIngredients(refs, entries.styrker, entries.virkestoffer);
    } catch (err) {
      if (!(err instanceof FestEntryError)) throw err;
      // In the whole register a reference to an entry it does not list is an error of the file.
      if (!held) { tally.malformedRow(line, err.message); continue; }
      product.ingredients = before?.ingredients ?? [];
    }
    if (before) {
      product.packs = [...before.packs];
      if (!entries.catalogues.has('KatLegemiddelpakning')) {
        for (const name of FROM_PACKS) {
          const value = before.attributes?.[name];
          if (value !== undefined) (product.attributes ??= {})[name] = value;
        }
      }
    }
    stated.add(product.key);
    products.set(product.key, product);
    tally.keep();
  }
}

function attachPacks(entries: FestEntries, partial: boolean, products: Map<string, ProductEntry>): void {
  const owner = new Map<string, ProductEntry>();
  for (const product of products.values()) for (const pack of product.packs) owner.set(pack.key, product);
  const stated = new Set<string>();
  for (const { tally, line, pack, merkevare, reimbursed, marketed } of entries.packs) {
    if (stated.has(pack.key)) { tally.exclude(EXCLUDED.duplicate); continue; }
    const product = products.get(merkevare);
    if (!product) {
      if (partial) tally.exclude(NO_MERKEVARE);
      else tally.malformedRow(line, `pack ${pack.key} names no LegemiddelMerkevare of the file`);
      continue;
    }
    // A pack the catalogue holds under another (or the same) merkevare: this entry replaces it.
    const previous = owner.get(pack.key);
    if (previous) previous.packs = previous.packs.filter((p) => p.key !== pack.key);
    product.packs.push(pack);
    owner.set(pack.key, product);
    stated.add(pack.key);
    const attributes = (product.attributes ??= {});
    if (reimbursed) attributes.reimbursable = true;
    // The product's first marketing date: the earliest of its packs'.
    if (marketed && !(typeof attributes.marketed_on === 'string' && attributes.marketed_on <= marketed)) attributes.marketed_on = marketed;
    tally.keep();
  }
}

/**
 * The products (with packs) and substances to state. `held` is the catalogue's FEST for
 * documents that are not the whole register, null for the whole register.
 */
export function combineFest(entries: FestEntries, held: HeldFest | null): { products: ProductEntry[]; substances: SubstanceEntry[] } {
  const products = new Map<string, ProductEntry>();
  if (held) for (const [key, product] of held.products) products.set(key, copyOf(product));
  stateProducts(entries, held, products);
  attachPacks(entries, held !== null, products);
  const substances = new Map<string, SubstanceEntry>();
  for (const v of entries.virkestoffer.values()) {
    const s = substanceOf(v);
    if (!substances.has(s.unii)) substances.set(s.unii, s);
  }
  for (const s of held?.substances ?? []) if (!substances.has(s.unii)) substances.set(s.unii, s);
  return { products: [...products.values()], substances: [...substances.values()] };
}
