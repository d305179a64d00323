/**
 * Answers of the AEMPS CIMA REST service (`https://cima.aemps.es/cima/rest/...`) as saved
 * JSON: `/medicamento` (one medicine with its presentations, active substances and ATC codes),
 * `/medicamentos` and `/presentaciones` (a page `{totalFilas, pagina, tamanioPagina,
 * resultados}` of medicines or presentations), `/presentacion` (one presentation: the
 * medicine's fields plus its `cn`). Recognised by content: a JSON object naming `nregistro`.
 *
 * Dates are milliseconds since 1970 (`estado.aut`, `estado.susp`, `estado.rev`), negative for
 * medicines authorised before 1970, counted from midnight in Madrid: they are read as that
 * day in Europe/Madrid. `nregistro` is opaque (`51347`, `20000836IP`, `40 400-95-96`) and is
 * keyed as the nomenclátor keys it, so an answer updates the medicine the nomenclátor holds.
 */
import { atcLevel, normaliseIdentifier } from '../../../vocabulary/codes.ts';
import type { Ingredient, PackEntry, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import { RowError, leadingQuantity, parseFrenchNumber, provisionalNameKey } from './common.ts';
import type { InputFile } from './common.ts';
import { RowTally } from '../row-outcome.ts';
import type { FileReport, RowProblem } from '../row-outcome.ts';
import type { Match } from './file-roles.ts';

type Json = Record<string, unknown>;

/** The role of a saved CIMA answer, from its start: a JSON object that names `nregistro`. */
export function recogniseCimaAnswer(text: string): Match {
  const start = text.trimStart();
  if (!start.startsWith('{')) return 0;
  return /"nregistro"\s*:/.test(start) ? 2 : 0;
}

/** What the answers of one ingest hold, medicine by medicine. */
export interface CimaAnswers {
  products: Map<string, ProductEntry>;
  substances: Map<string, SubstanceEntry>;
  packKeys: Set<string>;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (record: Json, name: string): string => (typeof record[name] === 'string' ? (record[name] as string).trim() : '');
const named = (value: unknown): string => (isObject(value) ? text(value, 'nombre') : '');

const madrid = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Madrid day of a CIMA date (ms since 1970, negative before it); a value that is not one makes the row malformed. */
export function cimaDay(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RowError(`${field} ${JSON.stringify(value)} is not a date in milliseconds`);
  return madrid.format(new Date(value));
}

interface Status { authorised?: string; suspended?: string; revoked?: string }

function statusOf(record: Json, where: string): Status {
  const estado = record.estado;
  if (estado === undefined) return {};
  if (!isObject(estado)) throw new RowError(`${where}: estado is not an object`);
  return { authorised: cimaDay(estado.aut, `${where}: estado.aut`), suspended: cimaDay(estado.susp, `${where}: estado.susp`), revoked: cimaDay(estado.rev, `${where}: estado.rev`) };
}

function ingredientsOf(record: Json, substances: Map<string, SubstanceEntry>): Ingredient[] {
  const list = Array.isArray(record.principiosActivos) ? record.principiosActivos.filter(isObject) : [];
  return list.sort((a, b) => Number(a.orden ?? 0) - Number(b.orden ?? 0)).flatMap((pa) => {
    const name = text(pa, 'nombre');
    if (name === '') return [];
    const key = provisionalNameKey(name);
    if (!substances.has(key)) substances.set(key, { unii: key, name, names: { es: name }, provisional: true });
    const amount = text(pa, 'cantidad');
    const unit = text(pa, 'unidad');
    const value = parseFrenchNumber(amount);
    const ingredient: Ingredient = { unii: key };
    if (amount !== '') ingredient.strength_text = `${amount} ${unit}`.trim();
    if (value !== null && unit !== '') Object.assign(ingredient, { strength_value: value, strength_unit: unit });
    return [ingredient];
  });
}

function attributesOf(record: Json, status: Status): Record<string, string | boolean> {
  const attributes: Record<string, string | boolean> = {};
  // The registration number as the AEMPS writes it; the key drops its spaces and dots.
  attributes.es_nregistro = text(record, 'nregistro');
  if (text(record, 'dosis') !== '') attributes.es_dosificacion = text(record, 'dosis');
  if (status.suspended) attributes.es_fecha_suspension = status.suspended;
  if (status.revoked) attributes.es_fecha_revocacion = status.revoked;
  for (const [field, name] of [['huerfano', 'es_huerfano'], ['biosimilar', 'es_biosimilar'], ['conduc', 'es_afecta_conduccion'], ['psum', 'es_problema_suministro']] as const) {
    if (record[field] === true) attributes[name] = true;
  }
  return attributes;
}

/** The medicine of an answer record (a medicine or a presentation), without packs. */
function productOf(record: Json, key: string, substances: Map<string, SubstanceEntry>): ProductEntry {
  const name = text(record, 'nombre');
  if (name === '') throw new RowError(`nregistro ${key}: no nombre`);
  const status = statusOf(record, `nregistro ${key}`);
  const product: ProductEntry = {
    key, country: 'ES', product_name: name, identifiers: [{ system: 'es_nregistro', code: key }],
    ingredients: ingredientsOf(record, substances), packs: [],
  };
  if (typeof record.generico === 'boolean') product.generic = record.generico;
  if (record.triangulo === true) product.additional_monitoring = true;
  if (text(record, 'labtitular') !== '') product.holder = text(record, 'labtitular');
  if (named(record.formaFarmaceutica) !== '') product.dose_form = named(record.formaFarmaceutica);
  const routes = (Array.isArray(record.viasAdministracion) ? record.viasAdministracion : []).map(named).filter(Boolean);
  if (routes.length > 0) product.route = routes.join(', ');
  const atcs = (Array.isArray(record.atcs) ? record.atcs.filter(isObject) : []).map((a) => text(a, 'codigo').toUpperCase());
  const atc = atcs.find((code) => atcLevel(code) === 5);
  if (atc) product.atc_code = atc;
  if (text(record, 'cpresc') !== '') product.dispensing_category = text(record, 'cpresc');
  if (status.authorised) product.authorised_on = status.authorised;
  product.authorisation_status = status.revoked ? 'Anulado' : status.suspended ? 'Suspendido' : 'Autorizado';
  if (typeof record.comerc === 'boolean') product.marketing_status = record.comerc && !status.revoked ? 'active' : 'withdrawn';
  product.attributes = attributesOf(record, status);
  return product;
}

/** A presentation (`presentaciones[]` of a medicine, or a `/presentacion` answer) as a pack. */
function packOf(record: Json, where: string): PackEntry {
  const rawCn = typeof record.cn === 'number' ? String(record.cn) : text(record, 'cn');
  const cn = normaliseIdentifier('cima_codigo', rawCn);
  if (!cn) throw new RowError(`${where}: cn "${rawCn}" is not a 6-digit Código Nacional`);
  const description = text(record, 'nombre');
  const pack: PackEntry = { key: cn, description, identifiers: [{ system: 'cima_codigo', code: cn }] };
  // The pack size follows the last comma of the name: `... EFERVESCENTES , 10 comprimidos`.
  const size = leadingQuantity(description.replace(/^.*,\s*/, ''));
  if (size) Object.assign(pack, size);
  const status = statusOf(record, where);
  if (typeof record.comerc === 'boolean') pack.marketing_status = record.comerc && !status.revoked ? 'active' : 'withdrawn';
  return pack;
}

/**
 * Completes a medicine read before from what another answer says of it: a page of results
 * carries no active substances or ATC codes, the `/medicamento` answer does. Returns whether
 * anything was added; what the first answer stated stays.
 */
function fillIn(known: ProductEntry, read: ProductEntry): boolean {
  let added = false;
  const target = known as unknown as Record<string, unknown>;
  for (const [field, value] of Object.entries(read)) {
    if (field === 'packs' || value === undefined) continue;
    const empty = target[field] === undefined || (field === 'ingredients' && known.ingredients.length === 0 && read.ingredients.length > 0);
    if (empty) {
      target[field] = value;
      added = true;
    }
  }
  return added;
}

/** Adds one record of an answer; a RowError says why it is malformed, `duplicate` that it was read before. */
function addRecord(record: unknown, answers: CimaAnswers): 'kept' | 'duplicate' {
  if (!isObject(record)) throw new RowError('not a JSON object');
  const raw = text(record, 'nregistro');
  const key = normaliseIdentifier('es_nregistro', raw);
  if (!key) throw new RowError(`nregistro "${raw}" is not a registration number`);
  const known = answers.products.get(key);
  const read = productOf(record, key, answers.substances);
  const product = known ?? read;
  const filled = known ? fillIn(known, read) : false;
  const packs = record.cn !== undefined ? [packOf(record, `nregistro ${key}`)]
    : (Array.isArray(record.presentaciones) ? record.presentaciones : []).map((p) => {
      if (!isObject(p)) throw new RowError(`nregistro ${key}: a presentación is not an object`);
      return packOf(p, `nregistro ${key}`);
    });
  const fresh = packs.filter((p) => !answers.packKeys.has(p.key));
  // A medicine or presentation read before, with nothing new: the first reading stands.
  if (known && fresh.length === 0 && !filled) return 'duplicate';
  for (const pack of fresh) answers.packKeys.add(pack.key);
  product.packs.push(...fresh);
  answers.products.set(key, product);
  return 'kept';
}

/** The records of one answer: the page's `resultados`, or the answer itself. */
function recordsOf(file: InputFile): { records: unknown[]; page: boolean } {
  let body: unknown;
  try {
    body = JSON.parse(file.content.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new RowError(`not JSON: ${(error as Error).message}`);
  }
  if (isObject(body) && Array.isArray(body.resultados)) return { records: body.resultados, page: true };
  return { records: [body], page: false };
}

/**
 * Reads saved CIMA answers into `answers`; each record of an answer (a medicine or a
 * presentation) is kept, malformed (with why) or excluded as a duplicate of one read before.
 * An answer that is not JSON at all is one malformed record.
 */
export function readCimaAnswers(files: readonly InputFile[], answers: CimaAnswers, problems: RowProblem[]): FileReport[] {
  return files.map((file) => {
    const tally = new RowTally(file.name, problems);
    let records: unknown[] = [];
    let page = false;
    try {
      ({ records, page } = recordsOf(file));
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      tally.malformedRow(0, error.message);
    }
    records.forEach((record, index) => {
      try {
        if (addRecord(record, answers) === 'kept') tally.keep();
        else tally.exclude('duplicate');
      } catch (error) {
        if (!(error instanceof RowError)) throw error;
        // No lines in JSON: the record's place in the answer says where.
        tally.malformedRow(0, `${page ? `resultados[${index}]` : 'answer'}: ${error.message}`);
      }
    });
    return tally.report(page ? 'CIMA answer (page of results)' : 'CIMA answer');
  });
}
