/**
 * SL group prices (Pharma-Gruppen-Code): the BAG fixes one price per pharma group for the
 * complementary medicines of SL chapter 70 (homoeopathics, anthroposophics), published in the
 * SL definition "Homoeopathica, Anthroposophica, Allergene" and kept as CSV by oddb2xml
 * (`bag_sl_group_prices.csv`: pharma_group_code, price_chf_incl_vat, description,
 * limitation). Which article belongs to which group comes from the manufacturers' article
 * lists (Weleda `weleda_arzneimittel.csv`: ean, pharmacode, name, darreichung,
 * abgabekategorie, zulassungsnummer, csl; WALA `wala_arzneimittel.csv`: `;`-separated,
 * EAN-Code, Pharmacode, `Bezeichnung `, `Galenische Form | PGR`, `KAT `, `CSL-Code*`, and the
 * pack price in `CSL 70.01.`); a `csl` of
 * `8x2070631` means 8 units priced at group 2070631 each.
 *
 * Files are recognised by their header, not their name. Output: one product and pack per
 * article, keyed by its GTIN (so the merge step joins it to the SL or Refdata pack with that
 * GTIN), whose SL entry carries `group_code` and `group_price` and whose price of kind
 * `group` is the pack's price (units × group price). An article list that names its articles
 * by pharmacode only (no GTIN column, or an empty GTIN) gives packs keyed `pharmacode:<n>`:
 * the merge step joins them to the Zur Rose or Refdata pack with that pharmacode, which
 * supplies the GTIN, so the group price reaches a catalogue that has either source loaded.
 */
import { normaliseGtin } from '../../../resolvers/catalogue/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, PackEntry, ProductEntry, SourceInfo } from '../snapshot.ts';
import { FileRejectedError, ProblemLog, RowError, decodeUtf8OrLatin, leadingQuantity, parseCsv, parseDecimal } from './common.ts';
import { firstLineSeparator } from './delimited-text.ts';
import type { CsvRecord, InputFile } from './common.ts';

export const CH_SL_GROUPS_FILE = 'bag_sl_group_prices.csv';

export const CH_SL_GROUPS_SOURCE: SourceInfo = {
  id: 'ch-sl-groups',
  name: 'SL pharma group prices (BAG, chapter 70)',
  country: 'CH',
  refresh_interval_hours: 24 * 32,
  url: 'https://www.spezialitätenliste.ch/',
};

const GROUP_COLUMNS = ['pharma_group_code', 'pharma-gruppen-code', 'group_code'];
const PRICE_COLUMNS = ['price_chf_incl_vat', 'group_price', 'price', 'preis'];
const GTIN_COLUMNS = ['ean', 'gtin', 'ean-code', 'ean_code'];
const PHARMACODE_COLUMNS = ['pharmacode', 'phar', 'pharma-code'];
const CSL_COLUMNS = ['csl', 'csl-code', 'csl_code', ...GROUP_COLUMNS];

interface Table {
  file: string;
  header: string[];
  rows: CsvRecord[];
  get(row: CsvRecord, names: readonly string[]): string;
}

interface Group {
  price: number;
  description: string;
  limitation: string;
}

function readTable(file: InputFile): Table {
  const text = decodeUtf8OrLatin(file.content);
  const [head, ...rows] = parseCsv(text, firstLineSeparator(text));
  // Header names are trimmed and lower-cased: WALA's list has trailing spaces in them.
  const header = (head?.fields ?? []).map((h) => h.trim().replace(/\*+$/, '').trim().toLowerCase());
  return {
    file: file.name, header, rows,
    get: (row, names) => {
      const index = header.findIndex((h) => names.includes(h));
      return index < 0 ? '' : (row.fields[index] ?? '').trim();
    },
  };
}

const has = (table: Table, names: readonly string[]): boolean => table.header.some((h) => names.includes(h));

function readGroups(table: Table, log: ProblemLog, report: FileReport): Map<string, Group> {
  const groups = new Map<string, Group>();
  for (const row of table.rows) {
    report.read += 1;
    const code = table.get(row, GROUP_COLUMNS);
    const price = parseDecimal(table.get(row, PRICE_COLUMNS));
    let message: string | null = null;
    if (!/^\d{7}$/.test(code)) message = `pharma group code "${code}" is not 7 digits`;
    else if (price === null) message = `group price "${table.get(row, PRICE_COLUMNS)}" is not a number`;
    else if (groups.has(code)) message = `pharma group code ${code} appears twice`;
    if (message !== null || price === null) {
      log.add(table.file, row.line, message ?? 'no price');
      continue;
    }
    groups.set(code, { price, description: table.get(row, ['description', 'beschreibung']), limitation: table.get(row, ['limitation']) });
    report.kept += 1;
  }
  report.skipped = report.read - report.kept;
  return groups;
}

/** `2070631` or `8x2070631` (8 units at that group's price). */
function parseCsl(raw: string): { code: string; units: number } {
  const m = /^(?:(\d+)\s*[x×]\s*)?(\d{7})$/i.exec(raw.replace(/\s+/g, ''));
  if (!m) throw new RowError(`pharma group code "${raw}" is not a group code`);
  return { code: m[2]!, units: m[1] ? Number(m[1]) : 1 };
}

/** The article's pack key and identifiers: its GTIN, else its pharmacode (`pharmacode:<n>`, as Zur Rose and Refdata key such packs). */
interface ArticleId { key: string; gtin: string | null; pharmacode: string | null }

function articlePack(id: ArticleId, description: string, group: Group, code: string, units: number): PackEntry {
  const amount = Math.round(group.price * units * 100) / 100;
  const pack: PackEntry = {
    key: id.key, description, identifiers: id.gtin ? [{ system: 'gtin', code: id.gtin }] : [], marketing_status: 'active',
    prices: [{ amount, currency: 'CHF', kind: 'group' }],
    sl: {
      listed: true, group_code: code, group_price: group.price,
      ...(group.limitation ? { limitations: group.limitation.split(/\s*,\s*/).map((l) => ({ code: l, text: '', level: 'pack' as const })) } : {}),
    },
  };
  if (id.pharmacode) pack.identifiers.push({ system: 'pharmacode', code: id.pharmacode });
  const quantity = leadingQuantity(description);
  if (quantity) Object.assign(pack, quantity);
  return pack;
}

/** The article's GTIN, else (none given) its pharmacode; a malformed one is a row error. */
function articleId(gtinRaw: string, pharmacodeRaw: string): ArticleId {
  // Exports pad pharmacodes with zeros (`0001019849`); the code itself has at most 7 digits.
  const digits = pharmacodeRaw.replace(/^0+/, '');
  const pharmacode = /^\d{1,7}$/.test(digits) ? digits : null;
  if (gtinRaw === '') {
    if (!pharmacode) throw new RowError(pharmacodeRaw === '' ? 'neither a GTIN nor a pharmacode' : `pharmacode "${pharmacodeRaw}" is not a pharmacode`);
    return { key: `pharmacode:${pharmacode}`, gtin: null, pharmacode };
  }
  const gtin = /^\d{8,14}$/.test(gtinRaw) ? normaliseGtin(gtinRaw) : null;
  if (!gtin) throw new RowError(`GTIN "${gtinRaw}" has a wrong check digit or length`);
  return { key: gtin, gtin, pharmacode };
}

function articleProduct(table: Table, row: CsvRecord, groups: Map<string, Group>): ProductEntry {
  const id = articleId(table.get(row, GTIN_COLUMNS), table.get(row, PHARMACODE_COLUMNS));
  const { code, units } = parseCsl(table.get(row, CSL_COLUMNS));
  const group = groups.get(code);
  if (!group) throw new RowError(`pharma group code ${code} is not in the group price table`);
  const name = table.get(row, ['name', 'bezeichnung']).replace(/\s+/g, ' ');
  const form = table.get(row, ['darreichung', 'galenische form | pgr', 'galenische form']);
  const description = form || group.description;
  const product: ProductEntry = {
    key: id.key, country: 'CH', product_name: [name, form].filter(Boolean).join(' ') || group.description,
    identifiers: [], ingredients: [], packs: [articlePack(id, description, group, code, units)],
  };
  // WALA states the pack price beside the code (`CSL 70.01.`); it wins over units × group price.
  const stated = parseDecimal(table.get(row, ['csl 70.01.']));
  const price = product.packs[0]?.prices?.[0];
  if (stated !== null && price) price.amount = stated;
  const authorisation = table.get(row, ['zulassungsnummer', 'swissmedic_no', 'swissmedic-nr']);
  if (/^\d{1,5}$/.test(authorisation)) product.identifiers.push({ system: 'swissmedic_no', code: authorisation.padStart(5, '0') });
  const category = table.get(row, ['abgabekategorie', 'kat']);
  if (category) product.attributes = { abgabekategorie: category };
  return product;
}

function readArticles(table: Table, groups: Map<string, Group>, log: ProblemLog, report: FileReport): ProductEntry[] {
  const products = new Map<string, ProductEntry>();
  for (const row of table.rows) {
    report.read += 1;
    // Articles outside any group (not SL-listed under chapter 70) have no group code.
    if (table.get(row, CSL_COLUMNS) === '') continue;
    try {
      const product = articleProduct(table, row, groups);
      if (products.has(product.key)) throw new RowError(`${product.key.startsWith('pharmacode:') ? 'pharmacode' : 'GTIN'} ${product.key.replace('pharmacode:', '')} appears twice`);
      products.set(product.key, product);
      report.kept += 1;
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      log.add(table.file, row.line, error.message);
    }
  }
  report.skipped = report.read - report.kept;
  return [...products.values()];
}

/** Parses the group price table and the article lists; rows that do not parse are reported. */
export function parseChSlGroups(files: InputFile[]): AdapterResult {
  const tables = files.map(readTable);
  const priceTable = tables.find((t) => has(t, GROUP_COLUMNS) && has(t, PRICE_COLUMNS) && !has(t, GTIN_COLUMNS) && !has(t, PHARMACODE_COLUMNS));
  if (!priceTable) throw new FileRejectedError(CH_SL_GROUPS_FILE, 'no group price table (header pharma_group_code, price_chf_incl_vat) among the files');
  const articleTables = tables.filter((t) => t !== priceTable);
  for (const t of articleTables) {
    if (!(has(t, GTIN_COLUMNS) || has(t, PHARMACODE_COLUMNS)) || !has(t, CSL_COLUMNS)) {
      throw new FileRejectedError(t.file, 'unexpected header: neither a group price table nor an article list with ean (or pharmacode) and csl columns');
    }
  }
  if (articleTables.length === 0) throw new FileRejectedError(priceTable.file, 'group prices need an article list (ean or pharmacode, csl) to know which packs they apply to');
  const log = new ProblemLog();
  const reports = new Map<Table, FileReport>(tables.map((t) => [t, {
    file: t.file, role: t === priceTable ? 'group prices' : 'articles', read: 0, kept: 0, skipped: 0,
  }]));
  const groups = readGroups(priceTable, log, reports.get(priceTable)!);
  const products = articleTables.flatMap((t) => readArticles(t, groups, log, reports.get(t)!));
  const unique = new Map<string, ProductEntry>();
  for (const p of products) {
    if (unique.has(p.key)) log.add(articleTables[0]!.file, 0, `${p.key.replace('pharmacode:', 'pharmacode ')} is listed by two article files; the first is kept`);
    else unique.set(p.key, p);
  }
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: CH_SL_GROUPS_SOURCE, products: [...unique.values()] },
    problems: log.problems,
    files: tables.map((t) => reports.get(t)!),
  };
}
