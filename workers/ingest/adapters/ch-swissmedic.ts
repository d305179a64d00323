/**
 * Swissmedic "Zugelassene Packungen" (Packungen.xlsx, Excel as published): one row per
 * authorised pack. Columns are found by header text (ch-swissmedic-columns.ts).
 *
 * - Product = one Dosisstärke (sequence) of a Zulassungsnummer, keyed `NNNNN-SS`: each
 *   strength has its own name, composition, authorisation date and Abgabekategorie
 *   Dosisstärke, and keying every product with its sequence keeps a key stable when a second
 *   strength is authorised later. Every product carries the 5-digit `swissmedic_no`.
 * - Pack keyed by its GTIN, derived as 7680 + 5-digit number + 3-digit Packungscode + GS1 check
 *   digit; identifiers `gtin` and the 8-digit `swissmedic_no`; Abgabekategorie Packung as
 *   `dispensing_category`, the BetmVV-EDI list ("Verz. bei betäubungsmittel-haltigen
 *   Arzneimitteln") as `narcotic_list`.
 * - Heilmittelcode "Tierarzneimittel" marks a veterinary product.
 * - Wirkstoff(e) are Latin names without UNIIs: provisional substances; a strength is taken
 *   only where Zusammensetzung writes the substance followed directly by an amount and unit.
 */
import { completeGtin } from '../../../vocabulary/check-digits.ts';
import { atcLevel } from '../../../vocabulary/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, Ingredient, PackEntry, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import { FileRejectedError, isoFromDayFirst, leadingQuantity, parseDecimal, provisionalNameKey } from './common.ts';
import { mapColumns } from './ch-swissmedic-columns.ts';
import { cellText } from './sheet-table.ts';
import type { ColumnKey } from './ch-swissmedic-columns.ts';
import { excelDateToIso, readFirstSheet } from './xlsx.ts';
import type { CellValue, SheetRow } from './xlsx.ts';

export const CH_SWISSMEDIC_FILE = 'Packungen.xlsx';

export const CH_SWISSMEDIC_SOURCE: SourceInfo = {
  id: 'ch-swissmedic',
  name: 'Swissmedic Zugelassene Packungen',
  country: 'CH',
  // Swissmedic updates the list of authorised packs at least monthly.
  refresh_interval_hours: 24 * 32,
  url: 'https://www.swissmedic.ch/',
};

interface Row {
  line: number;
  get(key: ColumnKey): string;
  raw(key: ColumnKey): CellValue;
}

interface Context {
  file: string;
  tally: RowTally;
  date1904: boolean;
  products: Map<string, ProductEntry>;
  packKeys: Set<string>;
  substances: Map<string, SubstanceEntry>;
}

/**
 * A date cell (Excel serial, `DD.MM.YYYY`, ISO text, or `YYYY/MM/DD` text as some rows of the
 * published list hold) as ISO; '' when empty or not a date.
 */
function dateOf(row: Row, key: ColumnKey, date1904: boolean): string {
  const value = row.raw(key);
  if (typeof value === 'number') return excelDateToIso(value, date1904) ?? '';
  const text = cellText(value);
  const slashed = /^(\d{4})\/(\d{2})\/(\d{2})$/.exec(text);
  if (slashed) return isoFromDayFirst(`${slashed[3]}.${slashed[2]}.${slashed[1]}`) ?? '';
  return isoFromDayFirst(text) ?? (/^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : '');
}

/** Digits of an integer cell padded to `width`, or null when the cell is not such a number. */
function digits(value: string, width: number): string | null {
  return /^\d+$/.test(value) && value.length <= width ? value.padStart(width, '0') : null;
}

/** The row's 5-digit number, sequence and pack code, or why the row is malformed. */
function codesOf(row: Row): { no5: string; seq: string; code: string } | string {
  const no5 = digits(row.get('number'), 5);
  const seq = digits(row.get('sequence'), 2);
  const code = digits(row.get('packCode'), 3);
  if (!no5 || no5 === '00000') return `Zulassungsnummer "${row.get('number')}" is not a number of at most 5 digits`;
  if (!seq) return `Dosisstärkenummer "${row.get('sequence')}" is not a number of at most 2 digits`;
  if (!code) return `Packungscode "${row.get('packCode')}" is not a number of at most 3 digits`;
  if (row.get('name') === '') return 'Bezeichnung des Arzneimittels is empty';
  return { no5, seq, code };
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const AMOUNT = '(\\d+(?:[.,]\\d+)?)\\s*(mg|g|µg|mcg|ng|ml|U\\.\\s?I\\.|I\\.\\s?E\\.|IE|UI|U|Mio\\.\\s?U\\.\\s?I\\.|Mio\\.\\s?I\\.\\s?E\\.)(?![\\w.])';

function ingredients(row: Row, ctx: Context): Ingredient[] {
  const composition = row.get('composition');
  return row.get('substances').split(/\s*,\s+/).map((n) => n.trim()).filter(Boolean).map((name) => {
    const key = provisionalNameKey(name);
    if (!ctx.substances.has(key)) ctx.substances.set(key, { unii: key, name, names: { la: name }, provisional: true });
    const m = new RegExp(`(?:^|[\\s,(])${escape(name)}\\s+${AMOUNT}`, 'i').exec(composition);
    const value = m ? parseDecimal(m[1]!.replace(',', '.')) : null;
    if (!m || value === null) return { unii: key };
    return { unii: key, strength_value: value, strength_unit: m[2]!.replace(/\s/g, ''), strength_text: `${m[1]!} ${m[2]!}` };
  });
}

function attributesOf(row: Row, ctx: Context): NonNullable<ProductEntry['attributes']> {
  const out: NonNullable<ProductEntry['attributes']> = {};
  const put = (name: string, value: string): void => {
    if (value !== '') out[name] = value;
  };
  put('heilmittelcode', row.get('domain'));
  put('it_number', row.get('itNumber'));
  put('first_authorised_on', dateOf(row, 'firstAuthorised', ctx.date1904));
  // "unbegrenzt" (unlimited) is kept as written.
  put('authorisation_valid_until', dateOf(row, 'validUntil', ctx.date1904) || row.get('validUntil'));
  put('dispensing_category_product', row.get('categoryProduct'));
  put('composition', row.get('composition'));
  put('indication', row.get('indicationSequence') || row.get('indicationProduct'));
  put('gmo_substances', row.get('gmo'));
  put('insulin_category', row.get('insulin'));
  return out;
}

function newProduct(row: Row, no5: string, seq: string, ctx: Context): ProductEntry {
  const product: ProductEntry = {
    key: `${no5}-${seq}`,
    country: 'CH',
    product_name: row.get('name'),
    identifiers: [{ system: 'swissmedic_no', code: no5 }],
    ingredients: ingredients(row, ctx),
    packs: [],
    marketing_status: 'active',
    attributes: attributesOf(row, ctx),
  };
  if (row.get('holder') !== '') product.holder = row.get('holder');
  const atc = row.get('atc').toUpperCase();
  if (atcLevel(atc) !== null) product.atc_code = atc;
  // ATCvet codes (Q + an ATC code) are not human ATC codes: kept as an attribute.
  else if (atc.startsWith('Q') && atcLevel(atc.slice(1)) !== null) product.attributes = { ...product.attributes, atcvet_code: atc };
  const authorised = dateOf(row, 'sequenceAuthorised', ctx.date1904) || dateOf(row, 'firstAuthorised', ctx.date1904);
  if (authorised !== '') product.authorised_on = authorised;
  if (row.get('categorySequence') !== '') product.dispensing_category = row.get('categorySequence');
  if (row.get('domain').toLowerCase() === 'tierarzneimittel') product.veterinary = true;
  return product;
}

/** The BetmVV-EDI list letters as written (`a`, `b`, `a, d`), lower case; '' when none. */
function narcoticList(value: string): string {
  const text = value.trim();
  return /^[a-g](\s*[,/ ]\s*[a-g])*$/i.test(text) ? text.toLowerCase() : text;
}

function buildPack(row: Row, no8: string): PackEntry {
  const gtin = completeGtin(`7680${no8}`);
  const description = [row.get('size'), row.get('unit')].filter(Boolean).join(' ');
  const pack: PackEntry = {
    key: gtin,
    description,
    identifiers: [{ system: 'gtin', code: gtin }, { system: 'swissmedic_no', code: no8 }],
    marketing_status: 'active',
  };
  if (row.get('categoryPack') !== '') pack.dispensing_category = row.get('categoryPack');
  const narcotics = narcoticList(row.get('narcotics'));
  if (narcotics !== '') pack.narcotic_list = narcotics;
  const quantity = leadingQuantity(description);
  if (quantity) Object.assign(pack, quantity);
  return pack;
}

function addRow(row: Row, ctx: Context): void {
  const codes = codesOf(row);
  if (typeof codes === 'string') {
    ctx.tally.malformedRow(row.line, codes);
    return;
  }
  const { no5, seq, code } = codes;
  const pack = buildPack(row, `${no5}${code}`);
  // A pack number listed twice keeps its first row.
  if (ctx.packKeys.has(pack.key)) {
    ctx.tally.exclude(EXCLUDED.duplicate);
    return;
  }
  ctx.packKeys.add(pack.key);
  const key = `${no5}-${seq}`;
  let product = ctx.products.get(key);
  if (!product) {
    product = newProduct(row, no5, seq, ctx);
    ctx.products.set(key, product);
  }
  product.packs.push(pack);
  ctx.tally.keep();
}

function rowReader(sheetRow: SheetRow, index: Partial<Record<ColumnKey, number>>): Row {
  const raw = (key: ColumnKey): CellValue => {
    const i = index[key];
    return i === undefined ? undefined : sheetRow.cells[i];
  };
  return { line: sheetRow.row, raw, get: (key) => cellText(raw(key)) };
}

/** Parses Packungen.xlsx; malformed rows are reported with their Excel row number and skipped. */
export async function parseChSwissmedic(file: string, content: Buffer): Promise<AdapterResult> {
  const sheet = await readFirstSheet(file, content);
  const { headerRow, index } = mapColumns(file, sheet.rows);
  const problems: RowProblem[] = [];
  const ctx: Context = {
    file, tally: new RowTally(file, problems), date1904: sheet.date1904, products: new Map(), packKeys: new Set(), substances: new Map(),
  };
  for (const sheetRow of sheet.rows) {
    if (sheetRow.row <= headerRow || sheetRow.cells.every((c) => cellText(c) === '')) continue;
    addRow(rowReader(sheetRow, index), ctx);
  }
  // An empty pack list would delete the whole source on ingest: refuse it instead.
  if (ctx.tally.read === 0) throw new FileRejectedError(file, 'no data rows below the header');
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT, source: CH_SWISSMEDIC_SOURCE, substances: [...ctx.substances.values()], products: [...ctx.products.values()],
    },
    problems,
    files: [ctx.tally.report('Zugelassene Packungen')],
  };
}
