/**
 * EMA medicines report (`medicines-output-medicines-report_en.xlsx` of the EMA's
 * download-medicine-data page, formerly "Medicines output — European public assessment
 * reports"), as the workbook or as the CSV of the same report: one row per centrally
 * authorised (or refused, withdrawn ...) medicine, title rows above the header row. Columns are
 * found by their header text, in the current wording (Category, Name of medicine, EMA product
 * number, Medicine status, International non-proprietary name (INN) / common name, Active
 * substance, Therapeutic area (MeSH), ATC code (human), Marketing authorisation developer /
 * applicant / holder, European Commission decision date, Marketing authorisation date,
 * Refusal of marketing authorisation date, Withdrawal / expiry / revocation / lapse of
 * marketing authorisation date, Medicine URL ...) or the earlier one (Medicine name, Product
 * number, Authorisation status, Therapeutic area, ATC code, Marketing authorisation
 * holder/company name, URL ...). The current report has no EU number column: national records
 * find their EMA record by the other bases of resolvers/catalogue/central-authorisation.ts.
 *
 * - Product keyed by its procedure number (`EMEA/H/C/000471`), country `EU`, identifiers
 *   `ema_procedure` and, where a column or the URL gives it, the product-level `eu_number`
 *   (`EU/1/yy/nnn`) that national registers print on the packs of the same medicine.
 * - `authorisation_status` lower case; only `authorised` is marketed (`marketing_status`).
 * - Ingredients from the INN / common name (else the active substance), one per name between
 *   ` / ` or `;`, as provisional substances keyed by name; the report has no packs or strengths.
 * - Orphan, biosimilar, conditional approval, exceptional circumstances, accelerated assessment,
 *   therapeutic area, refusal and withdrawal dates and the EPAR URL go to `attributes`.
 * - Category "Veterinary" marks a veterinary product (kept, findable by code, out of search).
 */
import { atcLevel, normaliseIdentifier } from '../../../vocabulary/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, Identifier, Ingredient, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import { FileRejectedError, ProblemLog, provisionalNameKey } from './common.ts';
import { csvTable } from './delimited-table.ts';
import { isZip } from './delimited-text.ts';
import { dateCell, sheetTable } from './sheet-table.ts';
import type { TableRow } from './sheet-table.ts';

export const EU_EMA_FILE = 'Medicines_output_european_public_assessment_reports.xlsx';

export const EU_EMA_SOURCE: SourceInfo = {
  id: 'eu-ema',
  name: 'EMA European public assessment reports (centrally authorised medicines)',
  // The EU is no single jurisdiction: the source is global, its products carry country `EU`.
  country: null,
  // EMA regenerates the report every night; a week without a sync is stale.
  refresh_interval_hours: 24 * 7,
  licence: 'European Medicines Agency; reproduction authorised provided the source is acknowledged',
  url: 'https://www.ema.europa.eu/en/medicines/download-medicine-data',
};

/** Header names (lower case) of each field, the current one first; the October 2025 export renamed a few. */
const COLUMNS = {
  category: ['category'],
  name: ['medicine name', 'name of medicine'],
  area: ['therapeutic area', 'therapeutic area (mesh)'],
  inn: ['international non-proprietary name (inn) / common name', 'inn / common name'],
  substance: ['active substance'],
  procedure: ['product number', 'ema product number'],
  status: ['authorisation status', 'medicine status'],
  atc: ['atc code', 'atc code (human)'],
  monitoring: ['additional monitoring'],
  generic: ['generic', 'generic or hybrid'],
  biosimilar: ['biosimilar'],
  conditional: ['conditional approval'],
  exceptional: ['exceptional circumstances'],
  accelerated: ['accelerated assessment'],
  orphan: ['orphan medicine'],
  authorised: ['marketing authorisation date', 'european commission decision date'],
  refused: ['date of refusal of marketing authorisation', 'date of refusal', 'refusal of marketing authorisation date'],
  withdrawn: ['date of withdrawal', 'withdrawal date', 'date of withdrawal of marketing authorisation',
    'withdrawal / expiry / revocation / lapse of marketing authorisation date'],
  suspended: ['suspension of marketing authorisation date'],
  applicationWithdrawn: ['withdrawal of application date'],
  opinion: ['opinion adopted date', 'date of opinion'],
  decision: ['european commission decision date', 'decision date'],
  advanced: ['advanced therapy'],
  prime: ['prime: priority medicine'],
  opinionStatus: ['opinion status'],
  holder: ['marketing authorisation holder/company name', 'marketing authorisation developer / applicant / holder'],
  euNumber: ['eu number', 'marketing authorisation number', 'eu authorisation number'],
  url: ['url', 'medicine url'],
  revision: ['revision number'],
} as const;
type Field = keyof typeof COLUMNS;

/** Product-level EU number, `EU/1/97/049` (a pack number `EU/1/97/049/001` is cut to it). */
const EU_NUMBER = /\bEU\/[12]\/\d{2}\/\d{3,4}\b/i;
const STATUSES = [
  'authorised', 'refused', 'withdrawn', 'suspended', 'not authorised', 'expired', 'lapsed', 'revoked', 'opinion', 'pending ec decision',
  // Statuses of the current report, which also lists applications that never reached a decision.
  'application withdrawn', 'opinion under re-examination', 'withdrawn from rolling review',
];

interface Row {
  line: number;
  get(field: Field): string;
  /** The field as an ISO date; '' when empty, null when not a date. */
  date(field: Field): string | null;
}

function fieldReader(row: TableRow, header: readonly string[], date1904: boolean): Row {
  const column = (field: Field): string | undefined => COLUMNS[field].find((c) => header.includes(c));
  return {
    line: row.line,
    get: (field) => { const c = column(field); return c ? row.get(c) : ''; },
    date: (field) => { const c = column(field); return c ? dateCell(row.raw(c), date1904) : ''; },
  };
}

/** `yes`/`no` cells (or booleans); undefined when empty or neither. */
function flag(value: string): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (['yes', 'true', '1', 'y'].includes(v)) return true;
  if (['no', 'false', '0', 'n'].includes(v)) return false;
  return undefined;
}

/** Substance names of the INN / common name (else the active substance): combinations are written `a / b`. */
export function emaSubstanceNames(inn: string, substance: string): string[] {
  const source = inn.trim() !== '' ? inn : substance;
  return [...new Set(source.split(/\s+\/\s+|\s*;\s*/).map((n) => n.replace(/\s+/g, ' ').trim()).filter(Boolean))];
}

interface Context {
  file: string;
  log: ProblemLog;
  products: Map<string, ProductEntry>;
  substances: Map<string, SubstanceEntry>;
}

function euNumberOf(row: Row): string | null {
  for (const text of [row.get('euNumber'), row.get('procedure'), row.get('url')]) {
    const m = EU_NUMBER.exec(text.replace(/%2F/gi, '/'));
    if (m) return normaliseIdentifier('eu_number', m[0]);
  }
  return null;
}

function attributesOf(row: Row, ctx: Context): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  const flags: Array<[Field, string]> = [
    ['orphan', 'orphan'], ['biosimilar', 'biosimilar'], ['conditional', 'conditional_approval'],
    ['exceptional', 'exceptional_circumstances'], ['accelerated', 'accelerated_assessment'],
    ['advanced', 'advanced_therapy'], ['prime', 'prime'],
  ];
  for (const [field, name] of flags) if (flag(row.get(field))) out[name] = true;
  const dated: Array<[Field, string]> = [
    ['refused', 'refused_on'], ['withdrawn', 'withdrawn_on'], ['suspended', 'suspended_on'],
    ['applicationWithdrawn', 'application_withdrawn_on'], ['opinion', 'opinion_on'], ['decision', 'decision_on'],
  ];
  for (const [field, name] of dated) {
    const iso = row.date(field);
    if (iso === null) ctx.log.add(ctx.file, row.line, `${name.replace('_on', '')} date "${row.get(field)}" is not a date (left out)`);
    else if (iso !== '') out[name] = iso;
  }
  if (row.get('area') !== '') out.therapeutic_area = row.get('area');
  if (row.get('opinionStatus') !== '') out.opinion_status = row.get('opinionStatus');
  if (row.get('revision') !== '') out.revision = row.get('revision');
  const url = row.get('url');
  if (/^https?:\/\//i.test(url)) out.epar_url = url;
  return out;
}

function ingredientsOf(row: Row, ctx: Context): Ingredient[] {
  return emaSubstanceNames(row.get('inn'), row.get('substance')).map((name) => {
    const unii = provisionalNameKey(name);
    if (!ctx.substances.has(unii)) ctx.substances.set(unii, { unii, name, names: { inn: name }, provisional: true });
    return { unii };
  });
}

/** Adds one report row; returns null when kept, an error message when malformed, or why it was left out. */
function addRow(row: Row, ctx: Context): string | { excluded: string } | null {
  const procedure = normaliseIdentifier('ema_procedure', row.get('procedure'));
  if (!procedure) return `product number "${row.get('procedure')}" is not an EMA procedure number (EMEA/H/C/nnnnnn)`;
  const name = row.get('name');
  if (name === '') return `${procedure}: no medicine name`;
  // The same procedure again: the first row is kept, this one left out as a duplicate.
  if (ctx.products.has(procedure)) return { excluded: EXCLUDED.duplicate };
  const status = row.get('status').replace(/\s+/g, ' ').trim().toLowerCase();
  if (status !== '' && !STATUSES.includes(status)) return `${procedure}: authorisation status "${row.get('status')}" is unknown`;
  const identifiers: Identifier[] = [{ system: 'ema_procedure', code: procedure }];
  const euNumber = euNumberOf(row);
  if (euNumber) identifiers.push({ system: 'eu_number', code: euNumber });
  const product: ProductEntry = {
    key: procedure,
    country: 'EU',
    product_name: name,
    brand: name,
    identifiers,
    ingredients: ingredientsOf(row, ctx),
    packs: [],
    marketing_status: status === 'authorised' || status === '' ? 'active' : 'withdrawn',
  };
  if (status !== '') product.authorisation_status = status;
  const atc = row.get('atc').toUpperCase().split(/[\s,;/]+/).filter((c) => atcLevel(c) !== null);
  if (atc[0]) product.atc_code = atc[0];
  const holder = row.get('holder');
  if (holder !== '') product.holder = holder;
  const authorised = row.date('authorised');
  if (authorised === null) ctx.log.add(ctx.file, row.line, `${procedure}: marketing authorisation date "${row.get('authorised')}" is not a date (left out)`);
  else if (authorised !== '') product.authorised_on = authorised;
  const monitoring = flag(row.get('monitoring'));
  if (monitoring !== undefined) product.additional_monitoring = monitoring;
  const generic = flag(row.get('generic'));
  if (generic !== undefined) product.generic = generic;
  if (row.get('category').toLowerCase().startsWith('vet') || procedure.startsWith('EMEA/V/')) product.veterinary = true;
  const attributes = attributesOf(row, ctx);
  if (atc.length > 1) attributes.atc_codes = atc.join(' ');
  if (Object.keys(attributes).length > 0) product.attributes = attributes;
  ctx.products.set(procedure, product);
  return null;
}

/** Parses the EMA EPAR report; rows that cannot be used are reported with their spreadsheet row and skipped. */
export async function parseEuEma(file: string, content: Buffer): Promise<AdapterResult> {
  const isHeader = (keys: string[]): boolean => COLUMNS.name.some((c) => keys.includes(c)) && COLUMNS.procedure.some((c) => keys.includes(c));
  const what = 'Name of medicine (Medicine name) and EMA product number (Product number)';
  // The EMA publishes the same report as a workbook and as CSV; the bytes tell which this is.
  const { header, rows, date1904 } = isZip(content) ? await sheetTable(file, content, isHeader, what) : csvTable(file, content, isHeader, what);
  const ctx: Context = { file, log: new ProblemLog(), products: new Map(), substances: new Map() };
  const tally = new RowTally(file, ctx.log.problems);
  for (const sheetRow of rows) {
    const outcome = addRow(fieldReader(sheetRow, header, date1904), ctx);
    if (outcome === null) tally.keep();
    else if (typeof outcome === 'string') tally.malformedRow(sheetRow.line, outcome);
    else tally.exclude(outcome.excluded);
  }
  // An empty report would delete every stored EMA product on ingest: refuse it instead.
  if (ctx.products.size === 0) throw new FileRejectedError(file, 'no usable medicine rows below the header');
  ctx.log.problems.sort((a, b) => a.line - b.line);
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: EU_EMA_SOURCE, substances: [...ctx.substances.values()], products: [...ctx.products.values()] },
    problems: ctx.log.problems,
    files: [tally.report('European public assessment reports')],
  };
}
