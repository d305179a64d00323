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
 */
import { normaliseIdentifier } from '../../../resolvers/catalogue/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, Ingredient, PackEntry, Price, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { FileRejectedError, ProblemLog, isoFromDayFirst, parseFrenchNumber, provisionalNameKey } from './common.ts';
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
interface Table { rows: Row[]; width: number }

const isHeader = (keys: string[]) => PT_COLUMNS.name.some((c) => keys.includes(c)) && PT_COLUMNS.form.some((c) => keys.includes(c));

async function readTable(file: InputFile): Promise<Table> {
  const table = await readListTable(file, isHeader, 'Nome do Medicamento and Forma Farmacêutica', delimitedTable);
  const columns = Object.fromEntries(Object.entries(PT_COLUMNS).map(([field, names]) => [field, pickColumn(table.header, names)])) as Record<PtField, string | undefined>;
  if (!columns.registo) throw new FileRejectedError(file.name, 'no Nº Registo column: export the Infomed list with its presentations');
  const width = table.header.length;
  return {
    width,
    rows: table.rows.map((r) => ({
      line: r.line,
      width: r.width,
      get: (field: PtField) => { const c = columns[field]; return c ? r.get(c) : ''; },
    })),
  };
}

interface Context { products: Map<string, ProductEntry>; registos: Set<string>; substances: Map<string, SubstanceEntry> }

/** Substances of `A + B` paired with the strengths of `x mg + y mg` when both list as many. */
function ingredientsOf(row: Row, ctx: Context): Ingredient[] {
  const names = row.get('substance').split(/\s+\+\s+/).map((s) => s.trim()).filter(Boolean);
  const strengths = row.get('strength').split(/\s+\+\s+/).map((s) => s.trim());
  return names.map((name, i) => {
    const key = provisionalNameKey(name);
    if (!ctx.substances.has(key)) ctx.substances.set(key, { unii: key, name, names: { pt: name.toLowerCase() }, provisional: true });
    const ingredient: Ingredient = { unii: key };
    const m = strengths.length === names.length ? /^(\d+(?:[.,]\d+)?)\s*(\S.*)$/.exec(strengths[i]!) : null;
    if (m) Object.assign(ingredient, { strength_value: parseFrenchNumber(m[1]!)!, strength_unit: m[2]!, strength_text: strengths[i]! });
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

function addRow(row: Row, width: number, ctx: Context): string | null {
  if (row.width < width) return `row has ${row.width} fields, the header ${width}`;
  const raw = row.get('registo');
  const registo = normaliseIdentifier('pt_registo', raw);
  if (!registo) return `Nº Registo "${raw}" is not a registration number`;
  if (ctx.registos.has(registo)) return `Nº Registo ${registo} is listed twice (the first row is kept)`;
  if (row.get('name') === '') return `Nº Registo ${registo}: no Nome do Medicamento`;
  const pack = packOf(row, registo);
  if (typeof pack === 'string') return `Nº Registo ${registo}: ${pack}`;
  const key = [row.get('name'), row.get('strength'), row.get('form')].join('|').toUpperCase();
  const product = ctx.products.get(key) ?? newProduct(row, key, ctx);
  ctx.products.set(key, product);
  product.packs.push(pack);
  product.marketing_status = product.packs.some((p) => p.marketing_status === 'active') ? 'active' : 'withdrawn';
  ctx.registos.add(registo);
  return null;
}

/** Parses an Infomed export; rows that cannot be used are reported and skipped. */
export async function parsePtInfomed(file: InputFile): Promise<AdapterResult> {
  const table = await readTable(file);
  const ctx: Context = { products: new Map(), registos: new Set(), substances: new Map() };
  const log = new ProblemLog();
  for (const row of table.rows) {
    const problem = addRow(row, table.width, ctx);
    if (problem) log.add(file.name, row.line, problem);
  }
  // An empty list would delete every stored Infomed pack on ingest: refuse it instead.
  if (ctx.registos.size === 0) throw new FileRejectedError(file.name, 'no usable rows below the header');
  const read = table.rows.length;
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: PT_INFOMED_SOURCE, substances: [...ctx.substances.values()], products: [...ctx.products.values()] },
    problems: log.problems,
    files: [{ file: file.name, role: 'Infomed (apresentações)', read, kept: ctx.registos.size, skipped: read - ctx.registos.size }],
  };
}
