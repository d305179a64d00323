/**
 * Spanish AEMPS nomenclátor de prescripción (CIMA): `Prescripcion.xml` with the code tables
 * published in the same zip (`prescripcion.zip`). Root `aemps_prescripcion` in the namespace
 * `http://schemas.aemps.es/prescripcion/aemps_prescripcion`, a `header` with the list date
 * (`listprescriptiondate`) and one `prescription` per presentation.
 *
 * - Pack keyed by its 6-digit Código Nacional (`cod_nacion`, lookup system `cima_codigo`);
 *   marketed (`sw_comercializado`) and authorised presentations are `active`, the others
 *   `withdrawn`; dispensing condition from the prescription/hospital switches; units from
 *   `nro_conte` (`40 comprimidos`) or `contenido` + content unit.
 * - Product keyed by its registration number (`nro_definitivo`, search-only system
 *   `es_nregistro`): name, holder, dose form, routes, ATC, generic, black triangle,
 *   authorisation date and situation (Autorizado / Suspendido / Anulado) with its date.
 * - Active substances named through DICCIONARIO_PRINCIPIOS_ACTIVOS as provisional name-keyed
 *   substances (`names.es`), with strength value, unit and the text as written.
 * The nomenclátor carries no prices: the Ministry's nomenclátor de facturación CSV, when given
 * beside it, adds the public price with VAT, the reference price, financing, the patient's
 * contribution and the homogeneous group (es-cima-facturacion.ts).
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { EXCLUDED, RowTally, unusedFile } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import { FileRejectedError, ProblemLog, RowError } from './common.ts';
import type { InputFile } from './common.ts';
import { ES_CIMA_DICTIONARIES, readDictionaries } from './es-cima-dictionaries.ts';
import type { DictionaryReport } from './es-cima-dictionaries.ts';
import { readCimaAnswers, recogniseCimaAnswer } from './es-cima-rest.ts';
import type { CimaAnswers } from './es-cima-rest.ts';
import { HEAD_BYTES, baseName, headText, rootElement } from './file-roles.ts';
import { ES_FACTURACION_FILE, applyFacturacion, readFacturacion } from './es-cima-facturacion.ts';
import type { Dictionaries } from './es-cima-dictionaries.ts';
import { readPresentation } from './es-cima-presentation.ts';
import { streamRecords, textOf } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

export const ES_CIMA_FILE = 'Prescripcion.xml';

/** The code tables the adapter reads besides the nomenclátor (the substance table is required). */
export const ES_CIMA_DICTIONARY_FILES = Object.values(ES_CIMA_DICTIONARIES).map((d) => d.file);

/** Namespace of the nomenclátor; a file in another namespace is another document. */
const NAMESPACE = 'http://schemas.aemps.es/prescripcion/aemps_prescripcion';

export const ES_CIMA_SOURCE: SourceInfo = {
  id: 'es-cima',
  name: 'AEMPS CIMA nomenclátor de prescripción',
  country: 'ES',
  // The AEMPS regenerates the nomenclátor daily; a week without a sync is stale.
  refresh_interval_hours: 24 * 7,
  licence: 'AEMPS public information: reuse allowed with the AEMPS named as its source (CIMA legal notice)',
  url: 'https://cima.aemps.es/',
};

interface Context {
  dictionaries: Dictionaries;
  substances: Map<string, SubstanceEntry>;
  products: Map<string, ProductEntry>;
  packKeys: Set<string>;
  tally: RowTally;
}

function addPresentation(record: XmlElement, line: number, ctx: Context): void {
  try {
    const { nregistro, product, pack } = readPresentation(record, ctx.dictionaries, ctx.substances);
    // The same CN again: the first record stands, the repeat is excluded (not malformed).
    if (ctx.packKeys.has(pack.key)) {
      ctx.tally.exclude(EXCLUDED.duplicate);
      return;
    }
    let entry = ctx.products.get(nregistro);
    if (!entry) {
      entry = { ...product, packs: [] };
      ctx.products.set(nregistro, entry);
    }
    entry.packs.push(pack);
    ctx.packKeys.add(pack.key);
    ctx.tally.keep();
  } catch (err) {
    if (!(err instanceof RowError)) throw err;
    ctx.tally.malformedRow(line, err.message);
  }
}

/** A medicine is marketed while one of its presentations is. */
function withMarketingStatus(product: ProductEntry): ProductEntry {
  return { ...product, marketing_status: product.packs.some((p) => p.marketing_status === 'active') ? 'active' : 'withdrawn' };
}

function readNomenclator(file: InputFile, ctx: Context): string | null {
  let listDate: string | null = null;
  streamRecords(file.name, file.content, {
    roots: ['aemps_prescripcion'],
    records: ['header', 'prescription'],
    onRoot(attributes) {
      const namespace = attributes.xmlns ?? '';
      if (namespace !== '' && namespace !== NAMESPACE) throw new FileRejectedError(file.name, `root element is in namespace "${namespace}", not the AEMPS nomenclátor's`);
    },
    onRecord(path, record, line) {
      if (path === 'header') listDate = textOf(record, 'listprescriptiondate') || null;
      else addPresentation(record, line, ctx);
    },
  });
  return listDate;
}

const head = (file: InputFile): string => headText(file.content.subarray(0, HEAD_BYTES));

/** The files of an ingest sorted by what they hold (content first; the code tables by their published names). */
interface EsFiles { nomenclator?: InputFile; answers: InputFile[]; billing?: InputFile; unused: FileReport[] }

function sortFiles(files: InputFile[]): EsFiles {
  const dictionaryNames = new Set(ES_CIMA_DICTIONARY_FILES.map((n) => n.toLowerCase()));
  const sorted: EsFiles = { answers: [], unused: [] };
  for (const file of files) {
    const name = baseName(file.name).toLowerCase();
    if (dictionaryNames.has(name)) continue;
    const text = head(file);
    if (recogniseCimaAnswer(text) === 2) sorted.answers.push(file);
    else if (!sorted.nomenclator && (rootElement(text) === 'aemps_prescripcion' || name === ES_CIMA_FILE.toLowerCase())) sorted.nomenclator = file;
    else if (!sorted.billing && ES_FACTURACION_FILE.test(baseName(file.name))) sorted.billing = file;
    else sorted.unused.push(unusedFile(file.name, 'not a file this adapter reads (neither the nomenclátor, one of its code tables, the billing CSV nor a CIMA answer)'));
  }
  return sorted;
}

/** The report of a code table: records without a code or a name are the table's own gaps, excluded. */
function dictionaryReport(r: DictionaryReport): FileReport {
  const gaps = r.read - r.kept;
  return { ...r, malformed: 0, ...(gaps > 0 ? { excluded: { [NO_CODE_OR_NAME]: gaps } } : {}) };
}

const NO_CODE_OR_NAME = 'no_code_or_name';

/** CIMA REST answers alone: a partial snapshot of the medicines they hold (it deletes nothing). */
function parseAnswers(sorted: EsFiles): AdapterResult {
  const problems: RowProblem[] = [];
  const answers: CimaAnswers = { products: new Map(), substances: new Map(), packKeys: new Set() };
  const reports = readCimaAnswers(sorted.answers, answers, problems);
  // Nothing read would change nothing; an answer that holds no medicine is refused instead.
  if (answers.products.size === 0) throw new FileRejectedError(sorted.answers[0]!.name, 'no medicine with a nregistro and a nombre in the CIMA answers');
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT, source: ES_CIMA_SOURCE, partial: true,
      substances: [...answers.substances.values()], products: [...answers.products.values()],
    },
    problems,
    files: [...reports, ...sorted.unused],
  };
}

/**
 * Parses the nomenclátor and its code tables, or CIMA REST answers given without it (a partial
 * update of the medicines they hold); presentations that cannot be used are reported and skipped.
 */
export function parseEsCima(files: InputFile[]): AdapterResult {
  const sorted = sortFiles(files);
  const file = sorted.nomenclator;
  if (!file && sorted.answers.length > 0) return parseAnswers(sorted);
  if (!file) throw new FileRejectedError(ES_CIMA_FILE, 'missing: the nomenclátor de prescripción (or CIMA REST answers) is required');
  const { dictionaries, reports } = readDictionaries(files);
  const log = new ProblemLog();
  const ctx: Context = {
    dictionaries, substances: new Map(), products: new Map(), packKeys: new Set(), tally: new RowTally(file.name, log.problems),
  };
  readNomenclator(file, ctx);
  // An empty nomenclátor would delete every stored pack of the source on ingest: refuse it instead.
  if (ctx.packKeys.size === 0) throw new FileRejectedError(file.name, 'no usable prescription records');
  const fileReports: FileReport[] = [ctx.tally.report('nomenclátor de prescripción'), ...reports.map(dictionaryReport)];
  if (sorted.billing) fileReports.push(billingReport(sorted.billing, ctx, log));
  // Beside the nomenclátor, which states every medicine, an answer adds nothing it does not hold.
  const answers = sorted.answers.map((a) => unusedFile(a.name, 'a CIMA answer is read alone, as a partial update; the nomenclátor given with it states every medicine'));
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT,
      source: ES_CIMA_SOURCE,
      substances: [...ctx.substances.values()],
      products: [...ctx.products.values()].map(withMarketingStatus),
    },
    problems: log.problems,
    files: [...fileReports, ...answers, ...sorted.unused],
  };
}

/** The billing CSV's rows: kept when their CN is in the nomenclátor, malformed when unreadable, else excluded. */
function billingReport(billing: InputFile, ctx: Context, log: ProblemLog): FileReport {
  const before = log.problems.length;
  const { rows, read } = readFacturacion(billing, log);
  const kept = applyFacturacion(ctx.products.values(), rows);
  const malformed = log.problems.length - before;
  const absent = read - kept - malformed;
  return { file: billing.name, role: 'nomenclátor de facturación', read, kept, malformed, ...(absent > 0 ? { excluded: { not_in_nomenclator: absent } } : {}) };
}
