/**
 * One row of TLV's medicine price list (Tandvårds- och läkemedelsförmånsverket, "Läkemedel i
 * förmånerna" / the database export) as a pack: keyed by its Varunummer, priced in SEK with the
 * pharmacy purchase price (AIP, ex factory) and the pharmacy retail price (AUP, public), found
 * by its NPL pack id, and grouped into a product by NPL-id (or by name, strength and form where
 * an export leaves the NPL columns out).
 */
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import type { PackEntry, Price, ProductEntry } from '../snapshot.ts';
import { RowError, leadingQuantity, parseFrenchNumber, provisionalNameKey } from './common.ts';
import type { DelimitedRow } from './delimited-table.ts';
import { listDate, pickColumn } from './delimited-table.ts';
import { excelDateToIso } from './xlsx.ts';

/** Header keys of each field, the wording of the current list first, then older and xlsx exports. */
export const TLV_COLUMNS = {
  varunummer: ['varunummer', 'varunr', 'varunr.'],
  name: ['produktnamn', 'namn', 'läkemedel', 'handelsnamn', 'produkt'],
  strength: ['styrka'],
  form: ['form', 'beredningsform', 'läkemedelsform'],
  packaging: ['förpackning', 'förpackningstyp'],
  size: ['antal', 'förpackningsstorlek', 'storlek'],
  aip: ['aip', 'aip (sek)', 'aip (kr)', 'apotekens inköpspris'],
  aup: ['aup', 'aup (sek)', 'aup (kr)', 'apotekens utförsäljningspris'],
  holder: ['företag', 'företagsnamn', 'innehavare'],
  atc: ['atc', 'atc-kod', 'atc kod'],
  substance: ['substans', 'aktiv substans', 'substansnamn'],
  status: ['förmånsstatus', 'status', 'subventionsstatus'],
  nplId: ['npl-id', 'nplid', 'npl id'],
  // `NPL pack-id`: the open-data download (tlv.se/file/medprice) as its readers name its columns.
  nplPackId: ['npl-pack-id', 'nplpackid', 'npl pack id', 'npl-packid', 'npl pack-id'],
  date: ['datum', 'giltig från', 'gäller från', 'beslutsdatum'],
} as const;
export type TlvField = keyof typeof TLV_COLUMNS;

/** True for the header row of a TLV list: Varunummer, a name and at least one price column. */
export function isTlvHeader(keys: string[]): boolean {
  const has = (field: TlvField): boolean => pickColumn(keys, TLV_COLUMNS[field]) !== undefined;
  return has('varunummer') && has('name') && (has('aip') || has('aup'));
}

/** A row read through the header: each field's cell, '' when the list has no such column. */
export type TlvRow = (field: TlvField) => string;

/** The column of each field in a header (undefined where the list has none); found once per file. */
export type TlvColumns = ReadonlyMap<string, string | undefined>;

export function tlvColumns(header: readonly string[]): TlvColumns {
  return new Map(Object.entries(TLV_COLUMNS).map(([field, names]) => [field, pickColumn(header, names)]));
}

/** The row's fields by name. */
export function tlvRow(columns: TlvColumns, row: DelimitedRow): TlvRow {
  return (field) => {
    const column = columns.get(field);
    return column ? row.get(column) : '';
  };
}

function sek(raw: string, label: string): number {
  // Thousands are spaced (`1 029,66`) or dotted in the list; xlsx cells are plain numbers.
  const value = parseFrenchNumber(raw.replace(/kr|SEK/gi, ''));
  if (value === null || value < 0) throw new RowError(`${label} "${raw}" is not an amount in SEK`);
  return Math.round(value * 100) / 100;
}

/** A date cell: text (`2026-11-01`, `1.11.2026`) or an Excel serial number from an xlsx export. */
function dateOf(raw: string): string | undefined {
  if (/^\d{5}(\.\d+)?$/.test(raw)) return excelDateToIso(Number(raw)) ?? undefined;
  const iso = listDate(raw);
  if (iso === null) throw new RowError(`date "${raw}" is not a date`);
  return iso === '' ? undefined : iso;
}

/** The Varunummer of a row: six digits, leading zeros an export dropped restored. */
export function varunummerOf(get: TlvRow): string {
  const raw = get('varunummer');
  const code = /^\d{1,6}$/.test(raw) ? normaliseIdentifier('se_varunummer', raw.padStart(6, '0')) : null;
  // Spreadsheets cut leading zeros, so only numbers of 4 to 6 digits are taken as Varunummer.
  if (!code || raw.length < 4) throw new RowError(`Varunummer "${raw}" is not a 6-digit Varunummer`);
  return code;
}

/** The pack of a row; malformed prices, codes or dates throw a RowError. */
export function tlvPack(get: TlvRow, varunummer: string): PackEntry {
  const prices: Price[] = [];
  const validFrom = dateOf(get('date'));
  for (const [field, kind, label] of [['aip', 'ex_factory', 'AIP'], ['aup', 'public', 'AUP']] as const) {
    if (get(field) === '') continue;
    const price: Price = { amount: sek(get(field), label), currency: 'SEK', kind };
    if (validFrom) price.valid_from = validFrom;
    prices.push(price);
  }
  if (prices.length === 0) throw new RowError(`Varunummer ${varunummer}: neither AIP nor AUP`);
  const description = [get('packaging'), get('size')].filter(Boolean).join(', ') || get('name');
  const pack: PackEntry = { key: varunummer, description, identifiers: [{ system: 'se_varunummer', code: varunummer }], prices };
  const rawPackId = get('nplPackId');
  if (rawPackId !== '') {
    const packId = normaliseIdentifier('se_npl_pack_id', rawPackId);
    if (!packId) throw new RowError(`Varunummer ${varunummer}: NPL pack id "${rawPackId}" is not a 14-digit NPL id`);
    pack.identifiers.push({ system: 'se_npl_pack_id', code: packId });
  }
  const units = leadingQuantity(description) ?? leadingQuantity(get('size'));
  if (units) Object.assign(pack, units);
  return pack;
}

/** Natural key of the product of a row: its NPL-id, or name, strength and form without one. */
export function tlvProductKey(get: TlvRow): string {
  const nplId = normaliseIdentifier('se_npl_id', get('nplId'));
  return nplId ?? [get('name'), get('strength'), get('form')].join('|');
}

/** The product of a row (without packs), its substance as a provisional Swedish-named entry. */
export function tlvProduct(get: TlvRow): ProductEntry {
  const name = get('name');
  if (name === '') throw new RowError('no Produktnamn');
  const product: ProductEntry = {
    key: tlvProductKey(get),
    country: 'SE',
    product_name: [name, get('strength'), get('form')].filter(Boolean).join(' '),
    brand: name,
    identifiers: [],
    ingredients: [],
    packs: [],
  };
  const nplId = normaliseIdentifier('se_npl_id', get('nplId'));
  if (nplId) product.identifiers.push({ system: 'se_npl_id', code: nplId });
  if (get('form') !== '') product.dose_form = get('form');
  if (get('holder') !== '') product.holder = get('holder');
  const atc = get('atc').replace(/\s+/g, '').toUpperCase();
  if (atc !== '') product.atc_code = atc;
  const substance = get('substance');
  if (substance !== '') {
    const ingredient = { unii: provisionalNameKey(substance) };
    // A single substance carries the product's strength as the list writes it.
    const single = !/[,+]| och /.test(substance) && get('strength') !== '';
    product.ingredients.push(single ? { ...ingredient, ...strengthOf(get('strength')) } : ingredient);
  }
  if (get('strength') !== '') product.attributes = { styrka: get('strength') };
  return product;
}

function strengthOf(text: string): { strength_text: string; strength_value?: number; strength_unit?: string } {
  const m = /^(\d[\d\s.,]*)\s*(\S.*)$/.exec(text);
  const value = m ? parseFrenchNumber(m[1]!) : null;
  return m && value !== null ? { strength_text: text, strength_value: value, strength_unit: m[2]!.trim() } : { strength_text: text };
}
