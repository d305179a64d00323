/**
 * The Spanish Ministry of Health's nomenclátor de facturación (the monthly CSV of presentations
 * the national health system pays for), read beside the AEMPS nomenclátor de prescripción to
 * give its presentations their prices and financing. One row per Código Nacional; columns are
 * found by their header, compared without accents and case, because the wording changed between
 * releases (`Precio venta al público con IVA` now, `PRECIO VENTA CON IVA_EUROS` before).
 * The separator is `,` (fields with commas quoted) or `;`; prices take a decimal dot or comma.
 */
import type { Price, ProductEntry } from '../snapshot.ts';
import { FileRejectedError, decodeUtf8OrLatin, parseCsv, parseFrenchNumber } from './common.ts';
import { firstLineSeparator } from './delimited-text.ts';
import type { ProblemLog } from './common.ts';
import type { InputFile } from './common.ts';

/** File names the adapter takes for the billing list (the Ministry dates them: `20261101_Nomenclator_de_Facturacion.csv`). */
export const ES_FACTURACION_FILE = /nomenclator.*facturaci[oó]n.*\.csv$/i;

/** Header names (accents dropped, lower case, single spaces) of each column. */
const COLUMNS = {
  cn: ['codigo nacional', 'cod. nacional', 'cn'],
  estado: ['estado'],
  aportacion: ['aportacion del beneficiario'],
  pvp: ['precio venta al publico con iva', 'precio venta con iva_euros', 'precio venta con iva'],
  referencia: ['precio de referencia', 'precio de referencia_euros'],
  agrupacion: ['codigo de la agrupacion homogenea del producto sanitario', 'codigo de la agrupacion homogenea'],
  agrupacionNombre: ['nombre de la agrupacion homogenea del producto sanitario', 'nombre de la agrupacion homogenea'],
} as const;
type Column = keyof typeof COLUMNS;

/** What the billing list says of one presentation. */
export interface BillingRow {
  line: number;
  prices: Price[];
  financed: boolean;
  aportacion?: string;
  group?: { code: string; label?: string };
}

function headerKey(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Euros as written (`3,12`, `3.12`, `1.234,56`); null when not an amount. */
function euros(raw: string): number | null {
  const value = /^\d+\.\d{1,2}$/.test(raw.trim()) ? Number(raw.trim()) : parseFrenchNumber(raw);
  return value !== null && value >= 0 ? Math.round(value * 100) / 100 : null;
}

function priceOf(raw: string, kind: string, name: string): Price | null {
  if (raw === '') return null;
  const amount = euros(raw);
  if (amount === null) throw new Error(`${name} "${raw}" is not an amount in EUR`);
  return { amount, currency: 'EUR', kind };
}

function rowOf(get: (c: Column) => string, line: number): BillingRow {
  const prices = [priceOf(get('pvp'), 'public', 'Precio venta al público con IVA'), priceOf(get('referencia'), 'reference', 'Precio de referencia')]
    .filter((p): p is Price => p !== null);
  const row: BillingRow = { line, prices, financed: get('estado').toUpperCase() === 'ALTA' };
  if (get('aportacion') !== '') row.aportacion = get('aportacion');
  if (get('agrupacion') !== '') row.group = { code: get('agrupacion'), ...(get('agrupacionNombre') ? { label: get('agrupacionNombre') } : {}) };
  return row;
}

/** Reads the billing list: rows by 6-digit CN; malformed rows go to `log`. */
export function readFacturacion(file: InputFile, log: ProblemLog): { rows: Map<string, BillingRow>; read: number } {
  const text = decodeUtf8OrLatin(file.content);
  const records = parseCsv(text, firstLineSeparator(text));
  const header = (records[0]?.fields ?? []).map(headerKey);
  const index = (c: Column): number => header.findIndex((h) => (COLUMNS[c] as readonly string[]).includes(h));
  if (index('cn') < 0 || index('pvp') < 0) throw new FileRejectedError(file.name, 'unexpected header: no Código Nacional or Precio venta al público con IVA column');
  const rows = new Map<string, BillingRow>();
  for (const record of records.slice(1)) {
    const get = (c: Column): string => (record.fields[index(c)] ?? '').trim();
    const cn = get('cn').replace(/\.\d$/, '');
    if (!/^\d{1,6}$/.test(cn)) {
      log.add(file.name, record.line, `Código Nacional "${get('cn')}" is not 6 digits`);
      continue;
    }
    try {
      rows.set(cn.padStart(6, '0'), rowOf(get, record.line));
    } catch (err) {
      log.add(file.name, record.line, `CN ${cn.padStart(6, '0')}: ${(err as Error).message}`);
    }
  }
  return { rows, read: records.length - 1 };
}

/** Adds `value` to a product attribute that lists distinct values. */
function addAttribute(product: ProductEntry, name: string, value: string | boolean): void {
  const attributes = product.attributes ?? {};
  const known = attributes[name];
  if (typeof value === 'boolean' || known === undefined) attributes[name] = value;
  else if (typeof known === 'string' && !known.split(', ').includes(value)) attributes[name] = `${known}, ${value}`;
  product.attributes = attributes;
}

/**
 * Gives the presentations their billing prices and the medicine its financing facts; returns how
 * many rows matched a presentation (a row of a product the prescription nomenclátor does not
 * list, such as a health accessory, is not kept).
 */
export function applyFacturacion(products: Iterable<ProductEntry>, rows: Map<string, BillingRow>): number {
  let matched = 0;
  for (const product of products) {
    for (const pack of product.packs) {
      const row = rows.get(pack.key);
      if (!row) continue;
      matched += 1;
      if (row.prices.length > 0) pack.prices = [...(pack.prices ?? []), ...row.prices];
      addAttribute(product, 'es_financiado_sns', row.financed || product.attributes?.es_financiado_sns === true);
      if (row.aportacion) addAttribute(product, 'es_aportacion', row.aportacion);
      if (row.group && !product.generic_groups?.some((g) => g.code === row.group!.code)) {
        product.generic_groups = [...(product.generic_groups ?? []), { ...row.group, role: 'substitutable' }];
      }
    }
  }
  return matched;
}
