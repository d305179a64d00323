/**
 * SL group prices (Pharma-Gruppen-Code): the BAG fixes one price per pharma group for the
 * complementary medicines of SL chapter 70 (homoeopathics, anthroposophics), published in the
 * SL definition "Homoeopathica, Anthroposophica, Allergene" and kept as CSV by oddb2xml
 * (`bag_sl_group_prices.csv`: pharma_group_code, price_chf_incl_vat, description,
 * limitation). Which article belongs to which group comes from the manufacturers' article
 * lists (Weleda `weleda_arzneimittel.csv`: ean, pharmacode, name, darreichung,
 * abgabekategorie, zulassungsnummer, csl; WALA `wala_arzneimittel.csv`: `;`-separated,
 * EAN-Code, Pharmacode, `Bezeichnung `, `Galenische Form | PGR`, `KAT `, `CSL-Code*`, and the
 * pack price in `CSL 70.01.`); a `csl` of `8x2070631` means 8 units priced at group 2070631 each.
 *
 * Files are recognised by their header, not their name (ch-sl-groups-tables.ts); a file that
 * is neither table is named as unused. Output: one product and pack per article, keyed by its
 * GTIN (so the merge step joins it to the SL or Refdata pack with that GTIN), whose SL entry
 * carries `group_code` and `group_price` and whose price of kind `group` is the pack's price
 * (units × group price). An article list that names its articles by pharmacode only gives
 * packs keyed `pharmacode:<n>`, joined to the Zur Rose or Refdata pack with that pharmacode.
 *
 * The group table given alone re-prices the packs the catalogue already holds from the last
 * article lists (ch-sl-groups-held.ts) and deletes nothing.
 */
import { normaliseGtin } from '../../../vocabulary/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, PackEntry, ProductEntry, SourceInfo } from '../snapshot.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import type { FileReport, RowProblem } from '../row-outcome.ts';
import { FileRejectedError, RowError, leadingQuantity, parseDecimal } from './common.ts';
import type { CsvRecord, InputFile } from './common.ts';
import { limitationsOf, repriceHeld } from './ch-sl-groups-held.ts';
import type { Group } from './ch-sl-groups-held.ts';
import { CSL_COLUMNS, GROUP_COLUMNS, GTIN_COLUMNS, PHARMACODE_COLUMNS, PRICE_COLUMNS, readTable, tableRole } from './ch-sl-groups-tables.ts';
import type { Table } from './ch-sl-groups-tables.ts';
import { unusedFile } from '../row-outcome.ts';

export const CH_SL_GROUPS_FILE = 'bag_sl_group_prices.csv';

export const CH_SL_GROUPS_SOURCE: SourceInfo = {
  id: 'ch-sl-groups',
  name: 'SL pharma group prices (BAG, chapter 70)',
  country: 'CH',
  refresh_interval_hours: 24 * 32,
  url: 'https://www.spezialitätenliste.ch/',
};

/** An article list's row that names no group: the manufacturer sells it outside SL chapter 70. */
export const NOT_GROUPED = 'not_grouped';

function readGroups(table: Table, tally: RowTally): Map<string, Group> {
  const groups = new Map<string, Group>();
  for (const row of table.rows) {
    const code = table.get(row, GROUP_COLUMNS);
    const raw = table.get(row, PRICE_COLUMNS);
    const price = parseDecimal(raw);
    if (!/^\d{7}$/.test(code)) tally.malformedRow(row.line, `pharma group code "${code}" is not 7 digits`);
    else if (price === null) tally.malformedRow(row.line, `group price "${raw}" is not a number`);
    else if (groups.get(code)?.price === price) tally.exclude(EXCLUDED.duplicate);
    else if (groups.has(code)) tally.malformedRow(row.line, `pharma group code ${code} appears twice with another price`);
    else {
      groups.set(code, { price, description: table.get(row, ['description', 'beschreibung']), limitation: table.get(row, ['limitation']) });
      tally.keep();
    }
  }
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
  const limitations = limitationsOf(group);
  const pack: PackEntry = {
    key: id.key, description, identifiers: id.gtin ? [{ system: 'gtin', code: id.gtin }] : [], marketing_status: 'active',
    prices: [{ amount, currency: 'CHF', kind: 'group' }],
    sl: { listed: true, group_code: code, group_price: group.price, ...(limitations.length ? { limitations } : {}) },
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

/** Where each kept article came from, so a second list naming it again counts it as a duplicate there. */
type Articles = Map<string, ProductEntry>;

function readArticles(table: Table, groups: Map<string, Group>, tally: RowTally, articles: Articles): void {
  for (const row of table.rows) {
    // Articles outside any group (not SL-listed under chapter 70) have no group code.
    if (table.get(row, CSL_COLUMNS) === '') {
      tally.exclude(NOT_GROUPED);
      continue;
    }
    try {
      const product = articleProduct(table, row, groups);
      // The same article again (in this list or in another one): the first is kept.
      if (articles.has(product.key)) tally.exclude(EXCLUDED.duplicate);
      else {
        articles.set(product.key, product);
        tally.keep();
      }
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      tally.malformedRow(row.line, error.message);
    }
  }
}

/** The tables sorted by what their header shows; files of neither kind are unused. */
function sortTables(files: InputFile[]): { prices: Table; articles: Table[]; unused: FileReport[] } {
  const tables = files.map(readTable);
  const prices = tables.filter((t) => tableRole(t) === 'group prices');
  if (prices.length > 1) throw new FileRejectedError(prices[1]!.file, `two group price tables (${prices[0]!.file} and ${prices[1]!.file}); give one at a time`);
  const unused = tables.filter((t) => tableRole(t) === null)
    .map((t) => unusedFile(t.file, 'neither a group price table (pharma_group_code, price_chf_incl_vat) nor an article list (ean or pharmacode, csl)'));
  if (!prices[0]) {
    throw new FileRejectedError(files[0]?.name ?? CH_SL_GROUPS_FILE, 'no group price table (header pharma_group_code, price_chf_incl_vat) among the files');
  }
  return { prices: prices[0], articles: tables.filter((t) => tableRole(t) === 'articles'), unused };
}

/**
 * Parses the group price table and the article lists; rows that do not parse are reported.
 * `held`: the products the catalogue holds for this source (ch-sl-groups-held.ts). A group
 * table given without article lists re-prices them; without them it is refused, since it
 * alone names no pack.
 */
export function parseChSlGroups(files: InputFile[], held?: readonly ProductEntry[]): AdapterResult {
  const { prices, articles, unused } = sortTables(files);
  const problems: RowProblem[] = [];
  const priceTally = new RowTally(prices.file, problems);
  const groups = readGroups(prices, priceTally);
  const snapshot = { format: SNAPSHOT_FORMAT, source: CH_SL_GROUPS_SOURCE } as const;
  if (articles.length === 0) {
    if (!held) {
      throw new FileRejectedError(prices.file, 'group prices alone re-price the packs a catalogue holds: ingest them into one (drugref ingest), or give an article list (ean or pharmacode, csl) with them');
    }
    const { products } = repriceHeld(held, groups);
    return { snapshot: { ...snapshot, products }, problems, files: [priceTally.report('group prices'), ...unused] };
  }
  const kept: Articles = new Map();
  const reports = articles.map((t) => {
    const tally = new RowTally(t.file, problems);
    readArticles(t, groups, tally, kept);
    return tally.report('articles');
  });
  return { snapshot: { ...snapshot, products: [...kept.values()] }, problems, files: [priceTally.report('group prices'), ...reports, ...unused] };
}
