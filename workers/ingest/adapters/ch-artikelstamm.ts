/**
 * Elexis Artikelstamm v5 (`ARTIKELSTAMM`, namespace http://elexis.ch/Elexis_Artikelstamm_v5,
 * built by oddb2xml from Refdata, the SL, Swissmedic and Zur Rose): PRODUCTS/PRODUCT (PRODNO,
 * SALECD, DSCR, DSCRF, ATC, LIMNAMEBAG, SUBSTANCE), LIMITATIONS/LIMITATION (LIMNAMEBAG, DSCR,
 * DSCRF, LIMITATION_PTS) and ITEMS/ITEM (attribute PHARMATYPE P|N; GTIN, PHAR, SALECD, DSCR,
 * COMP, PEXF, PPUB, PKG_SIZE, MEASURE, SL_ENTRY, IKSCAT, GENERIC_TYPE, DEDUCTIBLE, PRODNO).
 *
 * Keys: a product by its PRODNO (5-digit Swissmedic number + 2-digit sequence, so the first
 * five digits are its `swissmedic_no`); a pack by GTIN, else `phar:<pharmacode>`. Non-pharma
 * articles (PHARMATYPE N or no PRODNO) become one product each, keyed like their pack, with
 * no Swissmedic number: kept and findable by code, but linked to no medicine.
 * The file (about 100 MB) is streamed: memory holds the products, limitations and packs
 * read, never the document tree.
 */
import { atcLevel } from '../../../vocabulary/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import type { AdapterResult, Ingredient, PackEntry, ProductEntry, SlLimitation, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { FileRejectedError, RowError, parseDecimal, provisionalNameKey } from './common.ts';
import { plain } from './ch-sl-xml.ts';
import { readItem } from './ch-artikelstamm-items.ts';
import type { ItemRead } from './ch-artikelstamm-items.ts';
import { streamRecords, textOf } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

export const CH_ARTIKELSTAMM_FILE = 'artikelstamm.xml';

export const CH_ARTIKELSTAMM_SOURCE: SourceInfo = {
  id: 'ch-artikelstamm',
  name: 'Elexis Artikelstamm v5 (oddb2xml)',
  country: 'CH',
  // oddb2xml builds it daily; the SL it carries changes monthly.
  refresh_interval_hours: 24 * 8,
  url: 'https://github.com/zdavatz/oddb2xml',
};

const V5_NAMESPACE = 'http://elexis.ch/Elexis_Artikelstamm_v5';
/** SUBSTANCE placeholder oddb2xml writes for multi-ingredient products. */
const NO_SUBSTANCE = /^verschiedene kombinationen$/i;

/** The record elements: `parent/name`. */
export const ARTIKELSTAMM_RECORDS = ['PRODUCTS/PRODUCT', 'LIMITATIONS/LIMITATION', 'ITEMS/ITEM'];

/** Refuses a root that is not an Artikelstamm v5 document. */
export function checkRoot(file: string, name: string, attributes: Record<string, string>): void {
  if (name !== 'ARTIKELSTAMM') throw new FileRejectedError(file, 'root element is not <ARTIKELSTAMM>');
  const ns = attributes.xmlns;
  if (ns !== undefined && ns !== V5_NAMESPACE) throw new FileRejectedError(file, `namespace ${ns} is not Artikelstamm v5`);
}

interface Context {
  file: string;
  /** One row per ITEM (an article, i.e. a pack); PRODUCT and LIMITATION records are reported, not counted. */
  tally: RowTally;
  problems: RowProblem[];
  products: Map<string, ProductEntry>;
  /** LIMNAMEBAG of each product, resolved once all limitations are read. */
  productLimitation: Map<string, string>;
  limitations: Map<string, SlLimitation>;
  substances: Map<string, SubstanceEntry>;
  packKeys: Set<string>;
}

function ingredients(product: XmlElement, substances: Map<string, SubstanceEntry>): Ingredient[] {
  const names = textOf(product, 'SUBSTANCE').split(/\s*,\s*/).filter((n) => n !== '' && !NO_SUBSTANCE.test(n));
  return names.map((name) => {
    const key = provisionalNameKey(name);
    if (!substances.has(key)) substances.set(key, { unii: key, name, names: { la: name }, provisional: true });
    return { unii: key };
  });
}

/** Swissmedic number in the PRODNO: its first five digits, when they are not all zero. */
function swissmedicOf(prodno: string): string | null {
  return /^\d{6,7}$/.test(prodno) && !prodno.startsWith('00000') ? prodno.slice(0, 5) : null;
}

function newProduct(key: string, name: string, prodno: string | null): ProductEntry {
  const swissmedic = prodno ? swissmedicOf(prodno) : null;
  return {
    key, country: 'CH', product_name: name, identifiers: swissmedic ? [{ system: 'swissmedic_no', code: swissmedic }] : [],
    ingredients: [], packs: [], marketing_status: 'active',
  };
}

/** PRODNO of a PRODUCT; a RowError when it is no product number. */
export function prodnoOf(node: XmlElement): string {
  const prodno = textOf(node, 'PRODNO');
  if (!/^\d+$/.test(prodno)) throw new RowError(`PRODNO "${prodno}" is not a product number`);
  return prodno;
}

/** A PRODUCT (whose PRODNO is checked) as a product without packs, and the code of its BAG limitation. */
export function readProduct(node: XmlElement, prodno: string, substances: Map<string, SubstanceEntry>): { product: ProductEntry; limitation: string } {
  const product = newProduct(prodno, textOf(node, 'DSCR') || textOf(node, 'DSCRF') || prodno, prodno);
  product.ingredients = ingredients(node, substances);
  const atc = textOf(node, 'ATC').toUpperCase();
  if (atcLevel(atc) !== null) product.atc_code = atc;
  if (textOf(node, 'SALECD') === 'I') product.marketing_status = 'withdrawn';
  return { product, limitation: textOf(node, 'LIMNAMEBAG') };
}

function onProduct(node: XmlElement, ctx: Context): void {
  const prodno = prodnoOf(node);
  if (ctx.products.has(prodno)) throw new RowError(`PRODNO ${prodno} appears twice`);
  const { product, limitation } = readProduct(node, prodno, ctx.substances);
  if (limitation) ctx.productLimitation.set(prodno, limitation);
  ctx.products.set(prodno, product);
}

/** A LIMITATION: its code and its SL limitation. */
export function readLimitation(node: XmlElement): { code: string; entry: SlLimitation } {
  const code = textOf(node, 'LIMNAMEBAG');
  if (code === '') throw new RowError('LIMITATION has no LIMNAMEBAG');
  const entry: SlLimitation = { code, text: plain(textOf(node, 'DSCR') || textOf(node, 'DSCRF')), level: 'preparation' };
  const points = parseDecimal(textOf(node, 'LIMITATION_PTS'));
  if (points !== null) entry.value = points;
  return { code, entry };
}

function onLimitation(node: XmlElement, ctx: Context): void {
  const { code, entry } = readLimitation(node);
  ctx.limitations.set(code, entry);
}

/** The key of the product an item belongs to: its PRODNO, or its pack's for a non-pharma article. */
export const productKeyOf = (read: ItemRead): string => read.prodno ?? read.pack.key;

/** A product of its own for an item whose PRODNO names no product (or a non-pharma article). */
export function itemProduct(read: ItemRead): ProductEntry {
  const key = productKeyOf(read);
  const product = newProduct(key, read.name || key, read.prodno);
  if (!read.prodno) product.attributes = { pharmatype: 'N' };
  return product;
}

/** What an item adds to its product besides its pack: the holder and the generic flag, from the first item that has them. */
export function joinItem(product: ProductEntry, read: ItemRead): void {
  if (!product.holder && read.holder) product.holder = read.holder;
  if (product.generic === undefined && (read.genericType === 'G' || read.genericType === 'O')) product.generic = read.genericType === 'G';
}

/** The product an item belongs to: its PRODNO's, or one of its own for a non-pharma article. */
function productFor(read: ItemRead, ctx: Context): ProductEntry {
  let product = ctx.products.get(productKeyOf(read));
  if (!product) {
    product = itemProduct(read);
    ctx.products.set(product.key, product);
  }
  return product;
}

function onItem(node: XmlElement, ctx: Context): void {
  const read = readItem(node);
  // The same article again: the first is kept.
  if (ctx.packKeys.has(read.pack.key)) {
    ctx.tally.exclude(EXCLUDED.duplicate);
    return;
  }
  ctx.packKeys.add(read.pack.key);
  const product = productFor(read, ctx);
  product.packs.push(read.pack);
  joinItem(product, read);
  ctx.tally.keep();
}

/** An SL pack with its product's BAG limitation. */
export function limitPack(pack: PackEntry, limitation: SlLimitation | undefined): void {
  if (!pack.sl || !limitation) return;
  pack.sl.limitations = [limitation];
  pack.sl.limitation = { ...pack.sl.limitation, text: limitation.text };
}

/** The dispensing category all of a product's packs share, if they share one. */
export function commonCategory(categories: ReadonlySet<string | undefined>): string | undefined {
  const [only] = categories;
  return categories.size === 1 ? only : undefined;
}

/** Attaches each product's BAG limitation to its SL packs and sets the common dispensing category. */
function finish(ctx: Context): ProductEntry[] {
  for (const product of ctx.products.values()) {
    const limitation = ctx.limitations.get(ctx.productLimitation.get(product.key) ?? '');
    for (const pack of product.packs) limitPack(pack, limitation);
    const only = commonCategory(new Set(product.packs.map((p: PackEntry) => p.dispensing_category)));
    if (only) product.dispensing_category = only;
  }
  return [...ctx.products.values()];
}

const HANDLERS: Record<string, (node: XmlElement, ctx: Context) => void> = {
  'PRODUCTS/PRODUCT': onProduct,
  'LIMITATIONS/LIMITATION': onLimitation,
  'ITEMS/ITEM': onItem,
};

/** Parses an Artikelstamm v5 file; malformed records are reported and skipped. */
export function parseChArtikelstamm(file: string, content: Buffer): AdapterResult {
  const problems: RowProblem[] = [];
  const ctx: Context = {
    file, tally: new RowTally(file, problems), problems, products: new Map(), productLimitation: new Map(), limitations: new Map(),
    substances: new Map(), packKeys: new Set(),
  };
  streamRecords(file, content, {
    roots: ['ARTIKELSTAMM'],
    records: ARTIKELSTAMM_RECORDS,
    onRoot: (attrs) => checkRoot(file, 'ARTIKELSTAMM', attrs),
    onRecord: (path, node, line) => {
      try {
        HANDLERS[path]!(node, ctx);
      } catch (error) {
        if (!(error instanceof RowError)) throw error;
        if (path === 'ITEMS/ITEM') ctx.tally.malformedRow(line, error.message);
        else problems.push({ file, line, message: error.message });
      }
    },
  });
  const products = finish(ctx);
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: CH_ARTIKELSTAMM_SOURCE, substances: [...ctx.substances.values()], products },
    problems,
    files: [ctx.tally.report('ARTIKELSTAMM v5')],
  };
}
