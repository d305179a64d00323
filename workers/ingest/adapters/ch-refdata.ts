/**
 * Refdata article file (Refdatabase, Switzerland), in both published layouts (see
 * ch-refdata-xml.ts): the older `ARTICLE/ITEM` export with pharmacodes and the current
 * `Articles/Article` export with MedicinalProduct and PackagedProduct.
 *
 * - Pharma articles with a Swissmedic pack number become packs of one product per 5-digit
 *   Swissmedic number (the first five digits of the 8-digit pack number), which carries the
 *   `swissmedic_no` identifier the Swiss merge step links on. A pharma article without a
 *   number is its own product, keyed like its pack.
 * - Non-pharma articles (no MedicinalProduct, or ProductClass NONPHARMA) are each their own
 *   product with no product-level identifier: nothing links them to a medicine by guess.
 * - Packs are keyed by GTIN (GTIN-14 with indicator 0 folds to GTIN-13), else `pharmacode:<n>`;
 *   a key seen before is excluded as a duplicate (the first article wins).
 * - Refdata names packs only ("TEBOKAN Filmtabl 240 mg 30 Stk"); a product is named by the
 *   words its packs' names share ("PEVISONE Creme 15 g" + "… 30 g" → "PEVISONE Creme").
 * - Veterinary: Domain `Veterinary`, or in the older layout (no Domain) the register's own
 *   "ad us. vet." / "(vet)" marker in the name.
 * - A pack whose MarketingStatus/DateStop is on or before the file's `generatedOn` date is withdrawn.
 */
import { atcLevel, normaliseGtin } from '../../../vocabulary/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, Identifier, PackEntry, ProductEntry, SourceInfo } from '../snapshot.ts';
import { FileRejectedError, leadingQuantity } from './common.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import type { InputFile } from './common.ts';
import { itemArticle, simisArticle } from './ch-refdata-xml.ts';
import type { RefdataArticle } from './ch-refdata-xml.ts';
import { streamXmlRecords } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

export const CH_REFDATA_FILE = 'Refdata.Articles.xml';

export const CH_REFDATA_SOURCE: SourceInfo = {
  id: 'ch-refdata',
  name: 'Refdata articles (Refdatabase)',
  country: 'CH',
  // Refdata publishes the article file every night.
  refresh_interval_hours: 48,
  url: 'https://www.refdata.ch/',
};

/** The marker Swiss article lists put in the names of veterinary products. */
export const VETERINARY_NAME = /\bad\s+us\.?\s*vet\b|\(vet\)/i;

export type Layout = 'ITEM' | 'Article';

/**
 * The words all of a product's names share from the start, kept as names arrive (the first
 * name and how many of its words every later name repeats), so neither reader holds every name.
 */
export interface SharedWords {
  first: string;
  length: number;
}

/** A product being assembled from its articles: the product without packs and its names so far. */
export interface Group {
  product: ProductEntry;
  de: SharedWords | null;
  fr: SharedWords | null;
  /** True while every pack so far is withdrawn. */
  withdrawn: boolean;
}

interface Context {
  file: string;
  /** The rows of the file being read. */
  tally: RowTally;
  problems: RowProblem[];
  /** ISO date the file was generated (`generatedOn`), for MarketingStatus/DateStop. */
  generatedOn: string;
  groups: Map<string, Group>;
  packKeys: Set<string>;
}

export interface Codes {
  gtin: string | null;
  pharmacode: string | null;
  no8: string | null;
}

/** The article's codes, or the reason the article is malformed. */
export function codesOf(a: RefdataArticle): Codes | string {
  if (a.type !== 'PHARMA' && a.type !== 'NONPHARMA') return `article type "${a.type}" is neither PHARMA nor NONPHARMA`;
  if (a.nameDe === '' && a.nameFr === '') return 'article has no name';
  const gtin = a.gtin === '' ? null : normaliseGtin(a.gtin);
  if (a.gtin !== '' && gtin === null) return `GTIN "${a.gtin}" has a wrong check digit or length`;
  if (a.pharmacode !== '' && !/^\d{1,7}$/.test(a.pharmacode)) return `pharmacode "${a.pharmacode}" is not a number of at most 7 digits`;
  const pharmacode = a.pharmacode === '' || Number(a.pharmacode) === 0 ? null : String(Number(a.pharmacode));
  // Only a medicine has a Swissmedic number; one given on a non-pharma article is not used.
  const no8 = a.type === 'PHARMA' && a.no8 !== '' ? a.no8 : null;
  if (no8 !== null && !/^\d{8}$/.test(no8)) return `Swissmedic pack number "${a.no8}" is not 8 digits`;
  if (gtin === null && pharmacode === null) return 'article has neither a GTIN nor a pharmacode';
  return { gtin, pharmacode, no8 };
}

/** The keys of an article: its pack's (GTIN, else pharmacode) and its product's (5-digit Swissmedic number, else the pack's). */
export function keysOf(codes: Codes): { pack: string; product: string } {
  const pack = codes.gtin ?? `pharmacode:${codes.pharmacode!}`;
  return { pack, product: codes.no8 ? codes.no8.slice(0, 5) : pack };
}

/** The article's pack; withdrawn when its DateStop is on or before the file's `generatedOn`. */
export function buildPack(a: RefdataArticle, codes: Codes, key: string, generatedOn: string): PackEntry {
  const identifiers: Identifier[] = [];
  if (codes.gtin) identifiers.push({ system: 'gtin', code: codes.gtin });
  if (codes.pharmacode) identifiers.push({ system: 'pharmacode', code: codes.pharmacode });
  if (codes.no8) identifiers.push({ system: 'swissmedic_no', code: codes.no8 });
  const description = a.nameDe || a.nameFr;
  const stopped = a.dateStop !== '' && generatedOn !== '' && a.dateStop <= generatedOn;
  const pack: PackEntry = { key, description, identifiers, marketing_status: stopped ? 'withdrawn' : 'active' };
  if (a.category !== '') pack.dispensing_category = a.category;
  const quantity = leadingQuantity(description);
  if (quantity) Object.assign(pack, quantity);
  return pack;
}

/** A product for the article that is the first of its key. */
export function newGroup(a: RefdataArticle, codes: Codes, key: string): Group {
  const product: ProductEntry = {
    key, country: 'CH', product_name: '', identifiers: [], ingredients: [], packs: [], marketing_status: 'active',
  };
  if (codes.no8) product.identifiers.push({ system: 'swissmedic_no', code: codes.no8.slice(0, 5) });
  if (a.domain.toLowerCase().startsWith('vet') || (a.domain === '' && VETERINARY_NAME.test(a.nameDe))) product.veterinary = true;
  return { product, de: null, fr: null, withdrawn: true };
}

function addName(state: SharedWords | null, name: string): SharedWords {
  if (!state) return { first: name, length: name.trim().split(/\s+/).length };
  const [first, words] = [state.first.trim().split(/\s+/), name.trim().split(/\s+/)];
  let i = 0;
  while (i < state.length && i < words.length && words[i] === first[i]) i += 1;
  state.length = i;
  return state;
}

/** What an article adds to its product besides its pack: codes of the product, holder, names. */
export function joinArticle(group: Group, a: RefdataArticle, pack: PackEntry): void {
  const { product } = group;
  if (!product.atc_code && atcLevel(a.atc) !== null) product.atc_code = a.atc;
  // ATCvet codes (Q + an ATC code) are not human ATC codes: kept as an attribute.
  if (a.atc.startsWith('Q') && atcLevel(a.atc.slice(1)) !== null) product.attributes = { ...product.attributes, atcvet_code: a.atc };
  if (!product.holder && a.holder !== '') product.holder = a.holder;
  if (a.holderGln !== '' && !product.attributes?.holder_gln) product.attributes = { ...product.attributes, holder_gln: a.holderGln };
  if (a.nameDe !== '') group.de = addName(group.de, a.nameDe);
  if (a.nameFr !== '') group.fr = addName(group.fr, a.nameFr);
  group.withdrawn &&= pack.marketing_status === 'withdrawn';
}

function addArticle(a: RefdataArticle, ctx: Context): void {
  const codes = codesOf(a);
  if (typeof codes === 'string') {
    ctx.tally.malformedRow(a.line, codes);
    return;
  }
  const keys = keysOf(codes);
  if (ctx.packKeys.has(keys.pack)) {
    ctx.tally.exclude(EXCLUDED.duplicate);
    return;
  }
  ctx.packKeys.add(keys.pack);
  let group = ctx.groups.get(keys.product);
  if (!group) {
    group = newGroup(a, codes, keys.product);
    ctx.groups.set(keys.product, group);
  }
  const pack = buildPack(a, codes, keys.pack, ctx.generatedOn);
  joinArticle(group, a, pack);
  group.product.packs.push(pack);
  ctx.tally.keep();
}

const sharedText = (state: SharedWords): string => {
  const words = state.first.trim().split(/\s+/);
  return (state.length > 0 ? words.slice(0, state.length) : words).join(' ');
};

/** The words all names share from the start; the only name when there is one. */
export function sharedName(names: string[]): string {
  const state = names.reduce<SharedWords | null>(addName, null);
  return state ? sharedText(state) : '';
}

/** The product of a complete group: named by its packs' shared words, withdrawn when every pack is. */
export function finish(group: Group): ProductEntry {
  const { product } = group;
  const names = group.de ?? group.fr;
  product.product_name = names ? sharedText(names) : '';
  if (group.fr) product.attributes = { ...product.attributes, name_fr: sharedText(group.fr) };
  if (group.withdrawn) product.marketing_status = 'withdrawn';
  return product;
}

const ROOTS = new Set(['Articles', 'ARTICLE', 'Envelope']);

/**
 * Where a Refdata file's articles sit, learnt as its elements open: the layout (from the root
 * `Articles`, or an `ARTICLE` inside the SOAP envelope) and the `generatedOn` date.
 */
export class RefdataLayout {
  layout: Layout | null = null;
  generatedOn = '';

  constructor(private readonly file: string) {}

  onRoot(name: string, attributes: Record<string, string>): void {
    if (!ROOTS.has(name)) throw new FileRejectedError(this.file, `root element <${name}> is neither <Articles> nor <ARTICLE>`);
    if (name === 'ARTICLE') this.layout = 'ITEM';
    if (name === 'Articles') {
      this.layout = 'Article';
      this.generatedOn = (attributes.generatedOn ?? '').slice(0, 10);
    }
  }

  isRecord(name: string, ancestors: readonly string[]): boolean {
    if (name === 'ARTICLE' && this.layout === null) this.layout = 'ITEM';
    if (this.layout === 'Article') return name === 'Article' && ancestors.length === 1;
    return this.layout === 'ITEM' && name === 'ITEM' && ancestors.at(-1) === 'ARTICLE';
  }

  article(element: XmlElement): RefdataArticle {
    return this.layout === 'ITEM' ? itemArticle(element, element.line) : simisArticle(element, element.line);
  }

  /** The file's report once read; an empty article list would delete the whole source on ingest, so it is refused. */
  report(tally: RowTally): FileReport {
    if (this.layout === null) throw new FileRejectedError(this.file, 'no <ARTICLE> element in the SOAP envelope');
    if (tally.read === 0) throw new FileRejectedError(this.file, `no ${this.layout === 'Article' ? '<Article>' : '<ITEM>'} elements`);
    return tally.report(this.layout === 'Article' ? 'articles (Article/MedicinalProduct/PackagedProduct)' : 'articles (ARTICLE/ITEM)');
  }
}

/** Reads one file's articles into the shared context; returns its report. */
function readFile(file: string, content: Buffer, ctx: Context): FileReport {
  ctx.file = file;
  ctx.tally = new RowTally(file, ctx.problems);
  const layout = new RefdataLayout(file);
  streamXmlRecords(file, content, {
    onOpen(name, ancestors, attributes) {
      if (ancestors.length > 0) return;
      layout.onRoot(name, attributes);
      ctx.generatedOn = layout.generatedOn;
    },
    isRecord: (name, ancestors) => layout.isRecord(name, ancestors),
    onRecord(element) {
      addArticle(layout.article(element), ctx);
    },
  });
  return layout.report(ctx.tally);
}

/**
 * Parses one or more Refdata article files of either layout into one snapshot (the older
 * export came as two files, pharma and non-pharma, which must be ingested together or the
 * second would replace the first); malformed articles are reported and skipped.
 */
export function parseChRefdataFiles(files: InputFile[]): AdapterResult {
  if (files.length === 0) throw new FileRejectedError(CH_REFDATA_FILE, 'no file given');
  const problems: RowProblem[] = [];
  const ctx: Context = { file: '', tally: new RowTally('', problems), problems, generatedOn: '', groups: new Map(), packKeys: new Set() };
  const reports = files.map((f) => readFile(f.name, f.content, ctx));
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: CH_REFDATA_SOURCE, products: [...ctx.groups.values()].map(finish) },
    problems,
    files: reports,
  };
}

/** Parses a single Refdata article file of either layout. */
export function parseChRefdata(file: string, content: Buffer): AdapterResult {
  return parseChRefdataFiles([{ name: file, content }]);
}
