/**
 * Record images: the normalised form of each snapshot entry that is stored in `record`,
 * hashed into `content_hash`, and shown as `before` / `after` in change records. One
 * function per record kind, so the image written and the image compared are the same.
 *
 * A product's image leaves out its packs: packs are records of their own, so a price change
 * of one pack is one pack update, not also a product update.
 */
import { atcLevel } from '../../vocabulary/codes.ts';
import { canonicalise, contentHash } from './canonical.ts';
import type { JsonValue } from './canonical.ts';
import type { AtcEntry, ClassEntry, DddEntry, PackEntry, ProductEntry, RecallEntry, SubstanceEntry } from './snapshot.ts';

/** An image with its key and hash, ready to diff and write. */
export interface Imaged<E> {
  key: string;
  entry: E;
  image: Record<string, JsonValue>;
  hash: string;
}

function imaged<E>(key: string, entry: E, raw: unknown): Imaged<E> {
  const image = canonicalise(raw) as Record<string, JsonValue>;
  return { key, entry, image, hash: contentHash(image) };
}

/** DDDs in a stable order, at most one per (route, unit): the primary key of `atc_ddd`. */
export function normaliseDdd(ddd: readonly DddEntry[] | undefined): DddEntry[] {
  const seen = new Set<string>();
  const kept: DddEntry[] = [];
  for (const d of ddd ?? []) {
    const key = `${d.route}\u0000${d.unit}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(d.note ? { value: Number(d.value), unit: d.unit, route: d.route, note: d.note } : { value: Number(d.value), unit: d.unit, route: d.route });
  }
  const order = (d: DddEntry): string => `${d.route}\u0000${d.unit}`;
  return kept.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/** ATC node image `{code, name, level, ddd}`; the code is upper-cased, the level derived. */
export function atcImage(entry: AtcEntry): Imaged<AtcEntry> {
  const code = entry.code.trim().toUpperCase();
  const level = atcLevel(code) ?? entry.level;
  return imaged(code, { ...entry, code }, { code, name: entry.name, level, ddd: normaliseDdd(entry.ddd) });
}

/** The code one ATC level up (null for a level-1 anatomical group). */
export function atcParent(code: string): string | null {
  const cut: Record<number, number> = { 2: 1, 3: 3, 4: 4, 5: 5 };
  const level = atcLevel(code);
  return level && level > 1 ? code.slice(0, cut[level]) : null;
}

/** Class image `{system, code, label}`, keyed `system|code`. */
export function classImage(entry: ClassEntry): Imaged<ClassEntry> {
  return imaged(`${entry.system}|${entry.code}`, entry, { system: entry.system, code: entry.code, label: entry.label });
}

/** Substance image; a substance without a moiety is its own moiety. */
export function substanceImage(entry: SubstanceEntry): Imaged<SubstanceEntry> {
  const names = entry.names && Object.keys(entry.names).length > 0 ? entry.names : undefined;
  return imaged(entry.unii, entry, {
    ...entry,
    names,
    moiety_unii: entry.moiety_unii ?? entry.unii,
    provisional: entry.provisional ?? false,
    atc_codes: entry.atc_codes?.length ? entry.atc_codes : undefined,
    classes: entry.classes?.length ? entry.classes : undefined,
  });
}

/** Product image: the entry without its packs, status defaulting to active. */
export function productImage(entry: ProductEntry): Imaged<ProductEntry> {
  const { packs: _packs, ...rest } = entry;
  return imaged(entry.key, entry, { ...rest, marketing_status: entry.marketing_status ?? 'active' });
}

/** Pack image: the entry plus the key of the product it belongs to. */
export function packImage(entry: PackEntry, productKey: string): Imaged<PackEntry> {
  return imaged(entry.key, entry, { ...entry, product_key: productKey, marketing_status: entry.marketing_status ?? 'active' });
}

/** Recall image: the notice as published. */
export function recallImage(entry: RecallEntry): Imaged<RecallEntry> {
  return imaged(entry.key, entry, { ...entry });
}
