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
import { FileRejectedError, ProblemLog, RowError, findFile } from './common.ts';
import type { InputFile } from './common.ts';
import { ES_CIMA_DICTIONARIES, readDictionaries } from './es-cima-dictionaries.ts';
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
  log: ProblemLog;
  dictionaries: Dictionaries;
  substances: Map<string, SubstanceEntry>;
  products: Map<string, ProductEntry>;
  packKeys: Set<string>;
  read: number;
  skipped: number;
}

function addPresentation(file: string, record: XmlElement, line: number, ctx: Context): void {
  ctx.read += 1;
  try {
    const { nregistro, product, pack } = readPresentation(record, ctx.dictionaries, ctx.substances);
    if (ctx.packKeys.has(pack.key)) throw new RowError(`CN ${pack.key} is listed twice (the first is kept)`);
    let entry = ctx.products.get(nregistro);
    if (!entry) {
      entry = { ...product, packs: [] };
      ctx.products.set(nregistro, entry);
    }
    entry.packs.push(pack);
    ctx.packKeys.add(pack.key);
  } catch (err) {
    if (!(err instanceof RowError)) throw err;
    ctx.log.add(file, line, err.message);
    ctx.skipped += 1;
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
      else addPresentation(file.name, record, line, ctx);
    },
  });
  return listDate;
}

/** Parses the nomenclátor and its code tables; presentations that cannot be used are reported and skipped. */
export function parseEsCima(files: InputFile[]): AdapterResult {
  const file = findFile(files, ES_CIMA_FILE) ?? files.find((f) => /prescripcion.*\.xml$/i.test(f.name));
  if (!file) throw new FileRejectedError(ES_CIMA_FILE, 'missing: the nomenclátor de prescripción is required');
  const { dictionaries, reports } = readDictionaries(files);
  const ctx: Context = {
    log: new ProblemLog(), dictionaries, substances: new Map(), products: new Map(), packKeys: new Set(), read: 0, skipped: 0,
  };
  readNomenclator(file, ctx);
  // An empty nomenclátor would delete every stored pack of the source on ingest: refuse it instead.
  if (ctx.packKeys.size === 0) throw new FileRejectedError(file.name, 'no usable prescription records');
  const fileReports: FileReport[] = [
    { file: file.name, role: 'nomenclátor de prescripción', read: ctx.read, kept: ctx.read - ctx.skipped, skipped: ctx.skipped },
    ...reports.map((r) => ({ ...r, skipped: r.read - r.kept })),
  ];
  const billing = files.find((f) => ES_FACTURACION_FILE.test(f.name.split(/[\\/]/).pop()!));
  if (billing) {
    const { rows, read } = readFacturacion(billing, ctx.log);
    const kept = applyFacturacion(ctx.products.values(), rows);
    fileReports.push({ file: billing.name, role: 'nomenclátor de facturación', read, kept, skipped: read - kept });
  }
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT,
      source: ES_CIMA_SOURCE,
      substances: [...ctx.substances.values()],
      products: [...ctx.products.values()].map(withMarketingStatus),
    },
    problems: ctx.log.problems,
    files: fileReports,
  };
}
