/**
 * One `prescription` record of the AEMPS nomenclátor de prescripción (`Prescripcion.xml`): a
 * presentation (pack) keyed by its Código Nacional (`cod_nacion`), belonging to the medicine of
 * its registration number (`nro_definitivo`). This module turns the record into the product
 * facts (shared by every presentation of the medicine) and the pack facts; the adapter groups
 * presentations into products.
 */
import { atcLevel, normaliseIdentifier } from '../../../vocabulary/codes.ts';
import type { Ingredient, PackEntry, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import { RowError, isoFromDayFirst, leadingQuantity, parseFrenchNumber, provisionalNameKey } from './common.ts';
import { dictionaryCode } from './es-cima-dictionaries.ts';
import type { Dictionaries } from './es-cima-dictionaries.ts';
import { childOf, childrenOf, textOf } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

/**
 * Registration situations (`cod_sitreg`) as the AEMPS code table names them, used when the
 * table is not given: 1 authorised, 2 suspended, 3 revoked (anulado).
 */
const SITUATIONS: Record<string, string> = { 1: 'Autorizado', 2: 'Suspendido', 3: 'Anulado' };
const AUTHORISED = '1';

/** What one presentation says about its medicine and itself. */
export interface Presentation {
  nregistro: string;
  product: Omit<ProductEntry, 'packs'>;
  pack: PackEntry;
}

/** `1` → true; the nomenclátor writes its switches as 0/1. */
function flag(record: XmlElement, name: string): boolean {
  return textOf(record, name) === '1';
}

/** ISO date of the current releases (`2004-10-04`), or a day-first one (`04/10/2004`). */
export function esDate(raw: string): string | undefined {
  const value = raw.trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) return value.slice(0, 10);
  return isoFromDayFirst(value) ?? undefined;
}

function named(map: ReadonlyMap<string, string>, raw: string): string | undefined {
  return raw === '' ? undefined : map.get(dictionaryCode(raw));
}

/**
 * Strength of one active substance: `dosis_pa` + `unidad_dosis_pa` per the composition unit.
 * Per a volume or mass (`100 mg` per `5 ml`) the value becomes per one ml or g (`20 mg/ml`), as
 * the catalogue's strength arithmetic expects; per a dose unit (`comprimido`) it stays as written.
 */
function strengthOf(composition: XmlElement): Pick<Ingredient, 'strength_value' | 'strength_unit' | 'strength_text'> {
  const dose = textOf(composition, 'dosis_pa');
  const unit = textOf(composition, 'unidad_dosis_pa');
  const perValue = textOf(composition, 'dosis_composicion');
  const perUnit = textOf(composition, 'unidad_composicion');
  if (dose === '') return {};
  const text = [`${dose} ${unit}`.trim(), perUnit === '' ? '' : `${perValue} ${perUnit}`.trim()].filter(Boolean).join(' / ');
  const value = parseFrenchNumber(dose);
  if (value === null || unit === '') return { strength_text: text };
  const per = parseFrenchNumber(perValue);
  if (per !== null && per > 0 && /^(ml|g)$/i.test(perUnit)) {
    return { strength_value: Number((value / per).toPrecision(12)), strength_unit: `${unit}/${perUnit.toLowerCase()}`, strength_text: text };
  }
  return { strength_value: value, strength_unit: unit, strength_text: text };
}

function ingredients(form: XmlElement | undefined, dictionaries: Dictionaries, substances: Map<string, SubstanceEntry>): Ingredient[] {
  const compositions = childrenOf(form, 'composicion_pa')
    .sort((a, b) => Number(textOf(a, 'orden_colacion') || 0) - Number(textOf(b, 'orden_colacion') || 0));
  return compositions.map((composition) => {
    const code = textOf(composition, 'cod_principio_activo');
    const name = named(dictionaries.substances, code);
    if (!name) throw new RowError(`active substance ${code || '(no code)'} is not in DICCIONARIO_PRINCIPIOS_ACTIVOS`);
    const key = provisionalNameKey(name);
    if (!substances.has(key)) substances.set(key, { unii: key, name, names: { es: name }, provisional: true });
    return { unii: key, ...strengthOf(composition) };
  });
}

/** Dispensing condition of the presentation, the strictest first (hospital use, hospital diagnosis, prescription). */
function dispensingCategory(record: XmlElement): string {
  if (flag(record, 'sw_uso_hospitalario')) return 'Uso hospitalario (H)';
  if (flag(record, 'sw_diagnostico_hospitalario')) return 'Diagnóstico hospitalario (DH)';
  return flag(record, 'sw_receta') ? 'Sujeto a prescripción médica' : 'No sujeto a prescripción médica';
}

function productAttributes(record: XmlElement): Record<string, string | boolean> {
  const attributes: Record<string, string | boolean> = {};
  const dosage = textOf(record, 'des_dosific');
  if (dosage !== '') attributes.es_dosificacion = dosage;
  const since = esDate(textOf(record, 'fecha_situacion_registro'));
  if (since) attributes.es_fecha_situacion_registro = since;
  for (const [element, name] of [
    ['sw_huerfano', 'es_huerfano'], ['biosimilar', 'es_biosimilar'], ['importacion_paralela', 'es_importacion_paralela'],
    ['sw_especial_control_medico', 'es_especial_control_medico'], ['sw_tld', 'es_tratamiento_larga_duracion'],
    ['sw_psicotropo', 'es_psicotropo'], ['sw_afecta_conduccion', 'es_afecta_conduccion'], ['sw_base_a_plantas', 'es_base_a_plantas'],
  ] as const) {
    if (flag(record, element)) attributes[name] = true;
  }
  return attributes;
}

function productOf(record: XmlElement, nregistro: string, dictionaries: Dictionaries, substances: Map<string, SubstanceEntry>): Presentation['product'] {
  const name = textOf(record, 'des_nomco');
  if (name === '') throw new RowError(`nregistro ${nregistro}: no des_nomco (medicine name)`);
  const form = childOf(record, 'formasfarmaceuticas');
  const product: Presentation['product'] = {
    key: nregistro, country: 'ES', product_name: name, generic: flag(record, 'sw_generico'),
    additional_monitoring: flag(record, 'sw_triangulo_negro'),
    identifiers: [{ system: 'es_nregistro', code: normaliseIdentifier('es_nregistro', nregistro)! }],
    ingredients: ingredients(form, dictionaries, substances),
  };
  const atc = childrenOf(record, 'atc').map((a) => textOf(a, 'cod_atc').toUpperCase()).find((code) => atcLevel(code) === 5);
  if (atc) product.atc_code = atc;
  const doseForm = named(dictionaries.forms, textOf(form, 'cod_forfar'));
  if (doseForm) product.dose_form = doseForm;
  const routes = childrenOf(form, 'viasadministracion').map((v) => named(dictionaries.routes, textOf(v, 'cod_via_admin'))).filter(Boolean);
  if (routes.length > 0) product.route = routes.join(', ');
  const holder = named(dictionaries.holders, textOf(record, 'laboratorio_titular'));
  if (holder) product.holder = holder;
  const authorised = esDate(textOf(record, 'fecha_autorizacion'));
  if (authorised) product.authorised_on = authorised;
  const situation = textOf(record, 'cod_sitreg');
  const status = named(dictionaries.situations, situation) ?? SITUATIONS[dictionaryCode(situation)];
  if (status) product.authorisation_status = status;
  const attributes = productAttributes(record);
  if (Object.keys(attributes).length > 0) product.attributes = attributes;
  return product;
}

function packOf(record: XmlElement, cn: string, dictionaries: Dictionaries): PackEntry {
  const description = textOf(record, 'des_prese') || textOf(record, 'des_nomco');
  const pack: PackEntry = { key: cn, description, identifiers: [{ system: 'cima_codigo', code: cn }] };
  const written = textOf(record, 'nro_conte');
  const quantity = leadingQuantity(written) ?? leadingQuantity(description.replace(/^.*,\s*/, ''));
  const content = parseFrenchNumber(textOf(record, 'contenido'));
  const contentUnit = named(dictionaries.contentUnits, textOf(record, 'unid_contenido'));
  if (quantity) Object.assign(pack, quantity);
  else if (content !== null && content > 0 && contentUnit) Object.assign(pack, { units: content, unit: contentUnit });
  const situation = textOf(record, 'cod_sitreg_presen') || textOf(record, 'cod_sitreg');
  pack.marketing_status = flag(record, 'sw_comercializado') && dictionaryCode(situation) === AUTHORISED ? 'active' : 'withdrawn';
  pack.dispensing_category = dispensingCategory(record);
  if (flag(record, 'sw_estupefaciente')) pack.narcotic_list = 'estupefaciente';
  return pack;
}

/** Reads one `prescription` record; a RowError names what makes it unusable. */
export function readPresentation(record: XmlElement, dictionaries: Dictionaries, substances: Map<string, SubstanceEntry>): Presentation {
  const rawCn = textOf(record, 'cod_nacion');
  const cn = normaliseIdentifier('cima_codigo', rawCn);
  if (!cn) throw new RowError(`cod_nacion "${rawCn}" is not a 6-digit Código Nacional`);
  const rawRegistro = textOf(record, 'nro_definitivo');
  const nregistro = normaliseIdentifier('es_nregistro', rawRegistro);
  if (!nregistro) throw new RowError(`CN ${cn}: nro_definitivo "${rawRegistro}" is not a registration number`);
  return { nregistro, product: productOf(record, nregistro, dictionaries, substances), pack: packOf(record, cn, dictionaries) };
}
