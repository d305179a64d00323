/**
 * The merge step: sources that describe the same pack become ONE product and pack on the
 * read side. Every source keeps its own rows (so its next ingest diffs only them and never
 * removes another source's), and this step, run in the ingest's transaction, points each
 * row that another source's row represents at it with `merged_into` (0600_merge.sql).
 *
 * Linking is by shared codes within one country, never by name:
 * - packs sharing a pack code (GTIN, pharmacode, 8-digit Swissmedic pack number, NDC11, AIC,
 *   CIP13, PZN, dm+d AMPP id) are one pack, represented by the row of the highest-precedence
 *   source (the register with the richest record for that country), then the oldest id;
 * - a product joins the product of another source that holds the representatives of its
 *   merged packs. One whose packs lie in several products (a Swissmedic authorisation whose
 *   strengths the SL lists as separate preparations) stays apart while it holds packs no one
 *   else describes, and otherwise joins the first of them;
 * - a product without pack codes joins the one higher-precedence product sharing a product
 *   code (5-digit Swissmedic number, product NDC, CIS, dm+d AMP id), and none when several do.
 * Demonstration sources never merge with real ones. Merging writes no change record: like
 * signatures it is derived from what the sources hold, which their own change records describe.
 */
import type { Queryable } from '../../platform/db.ts';

/** Sources in the order their rows represent a merged record; unknown sources come after. */
const SOURCE_PRECEDENCE = [
  'ch-sl', 'ch-swissmedic', 'ch-refdata', 'ch-artikelstamm', 'ch-zurrose', 'ch-sl-groups',
  'fda-ndc', 'us-spl', 'us-openfda-ndc', 'us-rxnorm', 'gb-dmd', 'fr-bdpm', 'de-pzn',
  'it-aifa', 'it-aifa-prezzi',
] as const;

/** Codes that name one pack in its country. */
const PACK_SYSTEMS = ['gtin', 'pharmacode', 'swissmedic_no', 'ndc11', 'cip13', 'pzn', 'dmd_amppid', 'aic'];
/** Codes that name one product in its country (a Swissmedic pack number names its product too). */
const PRODUCT_SYSTEMS = ['swissmedic_no', 'ndc', 'cis', 'dmd_apid'];

interface CodeRow {
  product: string;
  source: string;
  pack: string | null;
  system: string;
  code: string;
}

/** Union-find over ids. */
class Sets {
  private readonly parent = new Map<string, string>();

  add(id: string): void {
    if (!this.parent.has(id)) this.parent.set(id, id);
  }

  find(id: string): string {
    let root = id;
    while (this.parent.get(root) !== root) root = this.parent.get(root)!;
    for (let at = id; at !== root;) {
      const next = this.parent.get(at)!;
      this.parent.set(at, root);
      at = next;
    }
    return root;
  }

  union(a: string, b: string): void {
    const [ra, rb] = [this.find(a), this.find(b)];
    if (ra !== rb) this.parent.set(rb, ra);
  }

  /** Sets of two or more members. */
  groups(): string[][] {
    const byRoot = new Map<string, string[]>();
    for (const id of this.parent.keys()) pushTo(byRoot, this.find(id), id);
    return [...byRoot.values()].filter((g) => g.length > 1);
  }
}

function pushTo<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function precedence(source: string): number {
  const rank = (SOURCE_PRECEDENCE as readonly string[]).indexOf(source);
  return rank < 0 ? SOURCE_PRECEDENCE.length : rank;
}

/** Orders ids by their source's precedence, then by id, so the first represents the rest. */
function byPrecedence(sourceOf: (id: string) => string): (a: string, b: string) => number {
  return (a, b) => precedence(sourceOf(a)) - precedence(sourceOf(b)) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Link keys of a code row: `[pack key, product key]`, either may be absent. */
function keysOf(row: CodeRow): [string | null, string | null] {
  if (row.system === 'swissmedic_no') {
    const product = /^\d{5}(\d{3})?$/.test(row.code) ? `swissmedic_no:${row.code.slice(0, 5)}` : null;
    return [row.pack && row.code.length === 8 ? `swissmedic_no:${row.code}` : null, product];
  }
  if (row.system === 'ndc') return [null, row.code.length === 9 ? `ndc:${row.code}` : null];
  const pack = row.pack && PACK_SYSTEMS.includes(row.system) ? `${row.system}:${row.code}` : null;
  const product = !row.pack && PRODUCT_SYSTEMS.includes(row.system) ? `${row.system}:${row.code}` : null;
  return [pack, product];
}

interface Catalogue {
  sourceOf: Map<string, string>;
  productOfPack: Map<string, string>;
  packsOf: Map<string, string[]>;
  packKeys: Map<string, string[]>;
  productKeys: Map<string, string[]>;
}

function index(rows: readonly CodeRow[]): Catalogue {
  const c: Catalogue = { sourceOf: new Map(), productOfPack: new Map(), packsOf: new Map(), packKeys: new Map(), productKeys: new Map() };
  for (const row of rows) {
    c.sourceOf.set(row.product, row.source);
    if (row.pack && !c.productOfPack.has(row.pack)) {
      c.productOfPack.set(row.pack, row.product);
      c.sourceOf.set(row.pack, row.source);
      pushTo(c.packsOf, row.product, row.pack);
    }
    const [pack, product] = keysOf(row);
    if (pack) pushTo(c.packKeys, pack, row.pack!);
    if (product) pushTo(c.productKeys, product, row.product);
  }
  return c;
}

/** Packs sharing any pack code are one pack, represented by the highest-precedence source's. */
function mergePacks(c: Catalogue): Map<string, string> {
  const sets = new Sets();
  for (const packs of c.packKeys.values()) {
    packs.forEach((p) => sets.add(p));
    for (const p of packs.slice(1)) sets.union(packs[0]!, p);
  }
  const merged = new Map<string, string>();
  for (const group of sets.groups()) {
    group.sort(byPrecedence((id) => c.sourceOf.get(id)!));
    for (const member of group.slice(1)) merged.set(member, group[0]!);
  }
  return merged;
}

/**
 * The product `product` joins, from its packs: the one product (of another source) holding
 * the representatives of its merged packs. A product whose merged packs lie in several
 * products stays apart while it holds packs of its own, and otherwise joins the first of them.
 */
function packTarget(c: Catalogue, packs: Map<string, string>, product: string): string | null {
  const own = c.packsOf.get(product) ?? [];
  const targets = new Set<string>();
  for (const pack of own) {
    const rep = packs.get(pack);
    const holder = rep ? c.productOfPack.get(rep)! : null;
    if (holder && c.sourceOf.get(holder) !== c.sourceOf.get(product)) targets.add(holder);
  }
  if (targets.size === 0) return null;
  const keepsOwnPacks = own.some((p) => !packs.has(p));
  if (targets.size > 1 && keepsOwnPacks) return null;
  return [...targets].sort(byPrecedence((id) => c.sourceOf.get(id)!))[0]!;
}

/** A product with no pack codes joins the one product of a higher-precedence source sharing a product code. */
function codeTarget(c: Catalogue, byProduct: Map<string, string[]>, product: string): string | null {
  const source = c.sourceOf.get(product)!;
  const candidates = new Set<string>();
  for (const key of byProduct.get(product) ?? []) {
    for (const other of c.productKeys.get(key)!) {
      if (other !== product && precedence(c.sourceOf.get(other)!) < precedence(source)) candidates.add(other);
    }
  }
  return candidates.size === 1 ? [...candidates][0]! : null;
}

/** Products and packs to merge (member id → representative id) among `rows`. */
export function planMerge(rows: readonly CodeRow[]): { products: Map<string, string>; packs: Map<string, string> } {
  const c = index(rows);
  const packs = mergePacks(c);
  const keysOfProduct = new Map<string, string[]>();
  for (const [key, products] of c.productKeys) for (const p of new Set(products)) pushTo(keysOfProduct, p, key);
  const direct = new Map<string, string>();
  for (const product of new Set(rows.map((r) => r.product))) {
    const target = c.packsOf.has(product) ? packTarget(c, packs, product) : codeTarget(c, keysOfProduct, product);
    if (target) direct.set(product, target);
  }
  // A target may itself have joined another product: follow to the end (a cycle, possible
  // only between equal-precedence sources, stops where it would repeat).
  const products = new Map<string, string>();
  for (const product of direct.keys()) {
    const seen = new Set([product]);
    let at = direct.get(product)!;
    while (direct.has(at) && !seen.has(direct.get(at)!)) {
      seen.add(at);
      at = direct.get(at)!;
    }
    if (at !== product && !direct.has(at)) products.set(product, at);
  }
  return { products, packs };
}

/** Countries among `countries` where two or more real (non-demo) sources hold products. */
async function sharedCountries(tx: Queryable, countries: string[]): Promise<string[]> {
  const { rows } = await tx.query<{ country: string }>(
    `SELECT p.country FROM products p JOIN sources s ON s.id = p.source
      WHERE p.country = ANY($1::text[]) AND NOT s.demo GROUP BY p.country HAVING count(DISTINCT p.source) > 1`,
    [countries],
  );
  return rows.map((r) => r.country);
}

async function codesOf(tx: Queryable, countries: string[]): Promise<CodeRow[]> {
  const { rows } = await tx.query<CodeRow>(
    `SELECT i.drug_id AS product, p.source, i.pack_id AS pack, i.system, i.code
       FROM identifiers i JOIN products p ON p.id = i.drug_id JOIN sources s ON s.id = p.source
      WHERE p.country = ANY($1::text[]) AND NOT s.demo AND i.system = ANY($2::text[])`,
    [countries, [...new Set([...PACK_SYSTEMS, ...PRODUCT_SYSTEMS])]],
  );
  return rows;
}

/** Writes `merged_into` for the products and packs of `countries`: the planned links, and null elsewhere. */
async function writeLinks(tx: Queryable, countries: string[], plan: ReturnType<typeof planMerge>): Promise<void> {
  const products = [...plan.products];
  const packs = [...plan.packs];
  await tx.query(
    `UPDATE products SET merged_into = NULL WHERE country = ANY($1::text[]) AND merged_into IS NOT NULL AND NOT (id = ANY($2::uuid[]))`,
    [countries, products.map(([id]) => id)],
  );
  await tx.query(
    `UPDATE products p SET merged_into = d.rep FROM unnest($1::uuid[], $2::uuid[]) AS d(id, rep)
      WHERE p.id = d.id AND p.merged_into IS DISTINCT FROM d.rep`,
    [products.map(([id]) => id), products.map(([, rep]) => rep)],
  );
  await tx.query(
    `UPDATE packs k SET merged_into = NULL FROM products p
      WHERE p.id = k.product_id AND p.country = ANY($1::text[]) AND k.merged_into IS NOT NULL AND NOT (k.id = ANY($2::uuid[]))`,
    [countries, packs.map(([id]) => id)],
  );
  await tx.query(
    `UPDATE packs k SET merged_into = d.rep FROM unnest($1::uuid[], $2::uuid[]) AS d(id, rep)
      WHERE k.id = d.id AND k.merged_into IS DISTINCT FROM d.rep`,
    [packs.map(([id]) => id), packs.map(([, rep]) => rep)],
  );
}

/**
 * Recomputes the merge of every product and pack in `countries` (the countries an ingest
 * touched). Returns how many products and packs are merged into another row.
 */
export async function mergeSources(tx: Queryable, countries: readonly string[]): Promise<{ products: number; packs: number }> {
  const all = [...new Set(countries)];
  if (all.length === 0) return { products: 0, packs: 0 };
  const shared = await sharedCountries(tx, all);
  const plan = shared.length > 0 ? planMerge(await codesOf(tx, shared)) : { products: new Map<string, string>(), packs: new Map<string, string>() };
  await writeLinks(tx, all, plan);
  return { products: plan.products.size, packs: plan.packs.size };
}
