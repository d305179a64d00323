/**
 * One row of Fimea's basic register pack file (perusrekisteri, PAKKAUS) as a product and pack:
 * the pack keyed by Fimea's pack number (PAKKAUSNRO) and found by its Vnr, the product by its
 * national authorisation number (MYYNTILUPANRO) or, for a centrally authorised medicine, its
 * EU number, together with strength and dose form (one authorisation covers one of each).
 */
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import type { Identifier, PackEntry, ProductEntry } from '../snapshot.ts';
import { RowError, leadingQuantity, parseFrenchNumber } from './common.ts';
import type { DelimitedRow } from './delimited-table.ts';
import { listDate } from './delimited-table.ts';

/** Columns of the pack file this adapter needs; the others are read when present. */
export const FIMEA_REQUIRED = ['pakkausnro', 'vnrnro', 'laakenimi', 'vahvuus', 'laakemuotonimi'] as const;

/** Register flags: `K` (kyllä) in the current files; `X`, `1` and `Y` in older exports and spreadsheets. */
function flag(raw: string): boolean {
  return ['K', 'X', '1', 'Y', 'KYLLÄ'].includes(raw.trim().toUpperCase());
}

/** A date column, or undefined when empty; a value that is not a date makes the row malformed. */
function date(row: DelimitedRow, column: string): string | undefined {
  const raw = row.get(column);
  const iso = listDate(raw);
  if (iso === null) throw new RowError(`${column.toUpperCase()} "${raw}" is not a date`);
  return iso === '' ? undefined : iso;
}

/** The EU number of the product (`EU/1/11/691`) from a pack-level one (`EU/1/11/691/006`). */
function euProduct(code: string): string {
  return /^EU\/[12]\/\d{2}\/\d{3,4}/.exec(code)?.[0] ?? code;
}

/** Natural key of the product a pack row belongs to. */
export function fimeaProductKey(row: DelimitedRow): string {
  const national = row.get('myyntilupanro');
  const eu = normaliseIdentifier('eu_number', row.get('eumyyntilupanro'));
  const authorisation = national !== '' ? `MT ${national}` : eu ? euProduct(eu) : row.get('laakenimi');
  return [authorisation, row.get('vahvuus'), row.get('laakemuotonimi')].join('|');
}

function productIdentifiers(row: DelimitedRow): Identifier[] {
  const out: Identifier[] = [];
  const national = normaliseIdentifier('fi_myyntilupa', row.get('myyntilupanro'));
  if (national) out.push({ system: 'fi_myyntilupa', code: national });
  const eu = normaliseIdentifier('eu_number', row.get('eumyyntilupanro'));
  if (eu) out.push({ system: 'eu_number', code: euProduct(eu) });
  return out;
}

/** The product of a row (without packs); ingredients are added from LAAKEAINE later. */
export function fimeaProduct(row: DelimitedRow): ProductEntry {
  const name = row.get('laakenimi');
  const strength = row.get('vahvuus');
  const form = row.get('laakemuotonimi');
  const product: ProductEntry = {
    key: fimeaProductKey(row),
    country: 'FI',
    product_name: [name, strength, form].filter(Boolean).join(' '),
    brand: name,
    identifiers: productIdentifiers(row),
    ingredients: [],
    packs: [],
  };
  if (form !== '') product.dose_form = form;
  const atc = row.get('atckoodi').toUpperCase();
  if (atc !== '') product.atc_code = atc;
  if (row.get('haltija') !== '') product.holder = row.get('haltija');
  const decided = date(row, 'paatospvm');
  if (decided) product.authorised_on = decided;
  if (row.get('tilanimi') !== '') product.authorisation_status = row.get('tilanimi');
  if (flag(row.get('vet')) && !flag(row.get('hum'))) product.veterinary = true;
  const previous = row.get('edellinen_laakenimi');
  if (previous !== '') product.previous_names = [{ name: previous }];
  const attributes: Record<string, string | boolean> = {};
  if (strength !== '') attributes.vahvuus = strength;
  if (row.get('substituutioryhma') !== '') attributes.substituutioryhma = row.get('substituutioryhma');
  if (flag(row.get('rinnakkaistuonti'))) attributes.rinnakkaistuonti = true;
  // The day a permit ends (a temporary special permit's PAATTYMISPVM), beside its status (TILANIMI).
  const ends = date(row, 'paattymispvm');
  if (ends) attributes.paattymispvm = ends;
  if (Object.keys(attributes).length > 0) product.attributes = attributes;
  return product;
}

/** Units of the pack: KOKO × KERROIN in YKSIKKO (`100` × `3` `kpl`), else the PAKKAUSKOKO text. */
function packSize(row: DelimitedRow): { units: number; unit: string } | null {
  const size = parseFrenchNumber(row.get('koko'));
  const factor = row.get('kerroin') === '' ? 1 : parseFrenchNumber(row.get('kerroin'));
  if (size !== null && size > 0 && factor !== null && factor > 0 && row.get('yksikko') !== '') {
    return { units: Math.round(size * factor * 1000) / 1000, unit: row.get('yksikko') };
  }
  return leadingQuantity(row.get('pakkauskoko')) ?? piecesOf(row.get('pakkauskoko'));
}

/**
 * Pieces of a pack size Fimea writes as free text without a unit: a total with its blisters
 * (`100 (2 x 50)` is 100) or a sum of strips (`7 + 7 + 7 + 7` is 28).
 */
export function piecesOf(text: string): { units: number; unit: string } | null {
  const total = /^(\d+)\s*\(\s*\d+\s*[x×]\s*\d+\s*\)$/i.exec(text.trim());
  if (total) return { units: Number(total[1]), unit: 'kpl' };
  if (/^\d+(\s*\+\s*\d+)+$/.test(text.trim())) return { units: text.split('+').reduce((sum, n) => sum + Number(n), 0), unit: 'kpl' };
  return null;
}

/** The pack of a row; a malformed Vnr or date throws a RowError. */
export function fimeaPack(row: DelimitedRow): PackEntry {
  const number = row.get('pakkausnro');
  if (!/^\d+$/.test(number)) throw new RowError(`PAKKAUSNRO "${number}" is not a pack number`);
  const rawVnr = row.get('vnrnro');
  const vnr = rawVnr === '' ? null : normaliseIdentifier('fi_vnr', rawVnr.padStart(6, '0'));
  if (rawVnr !== '' && !vnr) throw new RowError(`VNRNRO "${rawVnr}" is not a 6-digit Vnr`);
  const pack: PackEntry = {
    key: number,
    description: row.get('pakkauskoko') || row.get('laakenimi'),
    identifiers: vnr ? [{ system: 'fi_vnr', code: vnr }] : [],
  };
  const eu = normaliseIdentifier('eu_number', row.get('eumyyntilupanro'));
  // A centrally authorised pack's EU number is its Finnish authorisation number too (fi_myyntilupa).
  if (eu && eu !== euProduct(eu)) pack.identifiers.push({ system: 'eu_number', code: eu }, { system: 'fi_myyntilupa', code: eu });
  const size = packSize(row);
  if (size) Object.assign(pack, size);
  const onMarket = row.get('kaupan');
  const removed = date(row, 'kaupastapoispvm');
  if (onMarket !== '' || removed) pack.marketing_status = onMarket !== '' && Number(onMarket) >= 1 && !removed ? 'active' : 'withdrawn';
  if (row.get('reseptistatus') !== '') pack.dispensing_category = row.get('reseptistatus');
  if (row.get('huume') !== '') pack.narcotic_list = row.get('huume');
  return pack;
}
