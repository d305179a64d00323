/**
 * Infarmed Infomed list of medicines for Portugal (source `pt-infomed`): the export of the
 * Infomed search with its presentations, as xlsx or as `;`-separated CSV in Windows-1252 (every
 * field quoted, decimal commas), header wording of either release (pt-infomed-columns.ts).
 *
 * - Pack per presentation, keyed by its número de registo (`pt_registo`, 7 digits), with the
 *   CNPEM (`pt_cnpem`), the presentation text read for units and total quantity, PVP (`public`),
 *   preço de referência (`reimbursed`) in EUR, the escalão as `reimbursement_rate_percent`, and
 *   Comercialização (or the AIM status) as marketing status.
 * - Product per name, dosagem and forma farmacêutica (Infomed's own title), with the substances
 *   of `Substância Ativa/DCI` split on ` + ` and paired with the strengths of `Dosagem`
 *   (`875 mg + 125 mg`), the ATC code of `A10BA02 - metformina`, the holder, the AIM status and
 *   date, generic flag and dispensing classification (MSRM / MNSRM).
 * Substances are provisional, keyed by name, with the Portuguese name in `names.pt`.
 *
 * Infarmed documents no layout for the export: the product columns are those public readers of
 * `lista_infomed` use, the presentation columns carry the names Infomed's search form and
 * presentation table give them. Columns are therefore found by header text, never by position.
 *
 * The export of the search results as Infomed's site gives it (`lista_infomed.csv`: UTF-8 with
 * a byte-order mark, `,`, CRLF; Substância Ativa/DCI, Nome do Medicamento, Forma Farmacêutica,
 * Dosagem, Titular de AIM, Genérico, Estado da AIM, Comercialização) lists medicines, not
 * presentations: it has no Nº Registo. Such a file gives products without packs, one per name,
 * dosagem and form; a later row of the same product (Infomed lists a medicine once per
 * authorisation, `Levemir 100 U/ml` three times) is excluded as `duplicate`, and marks the product
 * marketed when it is.
 */
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, Ingredient, PackEntry, Price, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import { FileRejectedError, isoFromDayFirst, parseFrenchNumber, provisionalNameKey } from './common.ts';
import type { InputFile } from './common.ts';
import { delimitedTable, pickColumn, readListTable } from './delimited-table.ts';
import { PT_COLUMNS, marketingStatus, notReimbursed, presentation, reimbursementRate } from './pt-infomed-columns.ts';
import type { PtField } from './pt-infomed-columns.ts';

export const PT_INFOMED_FILE = 'lista_infomed.csv';

export const PT_INFOMED_SOURCE: SourceInfo = {
  id: 'pt-infomed',
  name: 'Infarmed Infomed: medicamentos de uso humano',
  country: 'PT',
  // Prices and reimbursement change monthly; a month without a sync is stale.
  refresh_interval_hours: 24 * 31,
  licence: 'Infarmed, I.P. public information (reuse with attribution)',
  url: 'https://extranet.infarmed.pt/INFOMED-fo/',
};

interface Row { line: number; width: number; get(field: PtField): string }
interface Table { rows: Row[]; width: number; presentations: boolean }

const isHeader = (keys: string[]) => PT_COLUMNS.name.some((c) => keys.includes(c)) && PT_COLUMNS.form.some((c) => keys.includes(c));

async function readTable(file: InputFile): Promise<Table> {
  const table = await readListTable(file, isHeader, 'Nome do Medicamento and Forma Farmacêutica', delimitedTable);
  const columns = Object.fromEntries(Object.entries(PT_COLUMNS).map(([field, names]) => [field, pickColumn(table.header, names)])) as Record<PtField, string | undefined>;
  return {
    width: table.header.length,
    // Without Nº Registo the export lists medicines, not their presentations.
    presentations: columns.registo !== undefined,
    rows: table.rows.map((r) => ({
      line: r.line,
      width: r.width,
      get: (field: PtField) => { const c = columns[field]; return c ? r.get(c) : ''; },
    })),
  };
}

interface Context { products: Map<string, ProductEntry>; registos: Set<string>; substances: Map<string, SubstanceEntry> }

/**
 * The parts of `A + B` outside parentheses: `Insulina humana (solúvel + isofânica)` is one
 * substance and `100 U.I./ml (15% + 85%)` one strength.
 */
export function plusParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '(') depth += 1;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === '+' && depth === 0 && /\s/.test(text[i - 1] ?? '') && /\s/.test(text[i + 1] ?? '')) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}

/** Substances of `A + B` paired with the strengths of `x mg + y mg` when both list as many. */
function ingredientsOf(row: Row, ctx: Context): Ingredient[] {
  const names = plusParts(row.get('substance'));
  const strengths = plusParts(row.get('strength'));
  return names.map((name, i) => {
    const key = provisionalNameKey(name);
    if (!ctx.substances.has(key)) ctx.substances.set(key, { unii: key, name, names: { pt: name.toLowerCase() }, provisional: true });
    const ingredient: Ingredient = { unii: key };
    const m = strengths.length === names.length ? /^(\d+(?:[.,]\d+)?)\s*(\S.*)$/.exec(strengths[i]!) : null;
    // A parenthesis after the unit says how the dose divides (`(15% + 85%)`), not what it is in.
    if (m) Object.assign(ingredient, { strength_value: parseFrenchNumber(m[1]!)!, strength_unit: m[2]!.replace(/\s*\(.*\)$/, ''), strength_text: strengths[i]! });
    return ingredient;
  });
}

function newProduct(row: Row, key: string, ctx: Context): ProductEntry {
  const product: ProductEntry = {
    key, country: 'PT', product_name: [row.get('name'), row.get('strength'), row.get('form')].filter(Boolean).join(' '),
    brand: row.get('name'), identifiers: [], ingredients: ingredientsOf(row, ctx), packs: [],
  };
  const atc = /^([A-Z]\d{2}[A-Z]{2}\d{2})\b/.exec(row.get('atc').toUpperCase());
  if (atc) product.atc_code = atc[1]!;
  if (row.get('form') !== '') product.dose_form = row.get('form');
  if (row.get('route') !== '') product.route = row.get('route');
  if (row.get('holder') !== '') product.holder = row.get('holder');
  if (row.get('authorisation') !== '') product.authorisation_status = row.get('authorisation');
  if (row.get('dispensing') !== '') product.dispensing_category = row.get('dispensing');
  const generic = row.get('generic');
  if (generic !== '') product.generic = /^s/i.test(generic);
  const authorised = isoFromDayFirst(row.get('authorised').replace(/-/g, '/'));
  if (authorised) product.authorised_on = authorised;
  return product;
}

function pricesOf(row: Row): Price[] | string {
  const prices: Price[] = [];
  for (const [field, kind] of [['pvp', 'public'], ['reference', 'reimbursed']] as Array<[PtField, string]>) {
    const raw = row.get(field);
    if (raw === '' || raw === '-') continue;
    const amount = parseFrenchNumber(raw.replace(/€/g, ''));
    if (amount === null || amount < 0) return `${field === 'pvp' ? 'PVP' : 'Preço de Referência'} "${raw}" is not an amount in EUR`;
    prices.push({ amount: Math.round(amount * 100) / 100, currency: 'EUR', kind });
  }
  return prices;
}

function packOf(row: Row, registo: string): PackEntry | string {
  const prices = pricesOf(row);
  if (typeof prices === 'string') return prices;
  const band = row.get('band');
  const rate = notReimbursed(band) ? null : reimbursementRate(band);
  if (!notReimbursed(band) && rate === null) return `escalão "${band}" is not A, B, C, D or a percentage`;
  const pack: PackEntry = {
    key: registo,
    description: row.get('pack') || [row.get('name'), row.get('strength')].join(' '),
    identifiers: [{ system: 'pt_registo', code: registo }],
    marketing_status: marketingStatus(row.get('marketing'), row.get('authorisation')),
  };
  const cnpem = normaliseIdentifier('pt_cnpem', row.get('cnpem'));
  if (cnpem) pack.identifiers.push({ system: 'pt_cnpem', code: cnpem });
  const size = presentation(row.get('pack'));
  if (size) Object.assign(pack, size);
  if (prices.length > 0) pack.prices = prices;
  if (rate !== null) pack.reimbursement_rate_percent = rate;
  return pack;
}

const productKey = (row: Row) => [row.get('name'), row.get('strength'), row.get('form')].join('|').toUpperCase();

/** Counts one row of a presentation export in `tally` and adds its pack to its product. */
function addPresentation(row: Row, width: number, ctx: Context, tally: RowTally): void {
  if (row.width < width) { tally.malformedRow(row.line, `row has ${row.width} fields, the header ${width}`); return; }
  const raw = row.get('registo');
  const registo = normaliseIdentifier('pt_registo', raw);
  if (!registo) { tally.malformedRow(row.line, `Nº Registo "${raw}" is not a registration number`); return; }
  // The same presentation again: the first row is kept.
  if (ctx.registos.has(registo)) { tally.exclude(EXCLUDED.duplicate); return; }
  if (row.get('name') === '') { tally.malformedRow(row.line, `Nº Registo ${registo}: no Nome do Medicamento`); return; }
  const pack = packOf(row, registo);
  if (typeof pack === 'string') { tally.malformedRow(row.line, `Nº Registo ${registo}: ${pack}`); return; }
  const key = productKey(row);
  const product = ctx.products.get(key) ?? newProduct(row, key, ctx);
  ctx.products.set(key, product);
  product.packs.push(pack);
  product.marketing_status = product.packs.some((p) => p.marketing_status === 'active') ? 'active' : 'withdrawn';
  ctx.registos.add(registo);
  tally.keep();
}

/** Counts one row of a medicines export (no Nº Registo) in `tally`: a product without packs. */
function addMedicine(row: Row, width: number, ctx: Context, tally: RowTally): void {
  if (row.width < width) { tally.malformedRow(row.line, `row has ${row.width} fields, the header ${width}`); return; }
  if (row.get('name') === '') { tally.malformedRow(row.line, 'no Nome do Medicamento'); return; }
  const key = productKey(row);
  const active = marketingStatus(row.get('marketing'), row.get('authorisation')) === 'active';
  const known = ctx.products.get(key);
  if (known) {
    // Infomed lists a medicine once per authorisation: one product, marketed while any row is.
    if (active) known.marketing_status = 'active';
    tally.exclude(EXCLUDED.duplicate);
    return;
  }
  const product = newProduct(row, key, ctx);
  product.marketing_status = active ? 'active' : 'withdrawn';
  ctx.products.set(key, product);
  tally.keep();
}

/** Parses an Infomed export (with presentations, or the medicines list alone); every row is kept, malformed or excluded. */
export async function parsePtInfomed(file: InputFile): Promise<AdapterResult> {
  const table = await readTable(file);
  const ctx: Context = { products: new Map(), registos: new Set(), substances: new Map() };
  const problems: RowProblem[] = [];
  const tally = new RowTally(file.name, problems);
  const add = table.presentations ? addPresentation : addMedicine;
  for (const row of table.rows) add(row, table.width, ctx, tally);
  // An empty list would delete every stored Infomed record on ingest: refuse it instead.
  if (tally.kept === 0) throw new FileRejectedError(file.name, 'no usable rows below the header');
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: PT_INFOMED_SOURCE, substances: [...ctx.substances.values()], products: [...ctx.products.values()] },
    problems,
    files: [tally.report(table.presentations ? 'Infomed (apresentações)' : 'Infomed (medicamentos)')],
  };
}
