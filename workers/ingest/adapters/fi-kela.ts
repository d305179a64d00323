/**
 * Kela's price list of medicines by Vnr ("Luettelo Kelalle ilmoitetuista hinnoista": Substituutio-
 * ryhmäkoodi, Vnr, Myyntihinta (sis. alv), *, Viitehinta, Hintaputken yläraja, Lääkenimi, Vahvuus,
 * Pakkauskoko, Lääkemuotonimi, Haltija, Lääkeaine), and the wider exports of Kela's medicine
 * database that add the wholesale price (tukkuhinta, VMH) and the reimbursement category
 * (korvattavuus). Prices are in EUR with decimal commas. Each row's prices attach to the pack of
 * Fimea's register with the same Vnr; Kela has no pack of its own to describe.
 */
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import type { Price } from '../snapshot.ts';
import { RowError, parseFrenchNumber } from './common.ts';
import type { DelimitedRow } from './delimited-table.ts';
import { pickColumn } from './delimited-table.ts';

/** Header keys of each field, current wording first. */
export const KELA_COLUMNS = {
  vnr: ['vnr', 'vnr-numero', 'vnrnro', 'vnro'],
  retail: ['myyntihinta (sis. alv)', 'myyntihinta', 'vähittäismyyntihinta', 'vähittäismyyntihinta (sis. alv)', 'alvillinenhinta'],
  reference: ['viitehinta'],
  wholesale: ['tukkuhinta', 'tukkuhinta (vmh)', 'vmh'],
  reimbursement: ['korvattavuus', 'korvausluokka'],
  group: ['substituutioryhmäkoodi', 'substituutioryhma'],
} as const;
type KelaField = keyof typeof KELA_COLUMNS;

/** True for a header row of a Kela list: a Vnr column and a retail price column. */
export function isKelaHeader(keys: string[]): boolean {
  return pickColumn(keys, KELA_COLUMNS.vnr) !== undefined && pickColumn(keys, KELA_COLUMNS.retail) !== undefined;
}

/** What one Kela row says about the pack with its Vnr. */
export interface KelaPrices {
  vnr: string;
  prices: Price[];
  reimbursementRate?: number;
  substitutionGroup?: string;
  /** The Vnr column read "poistumassa": no longer at the wholesaler, maybe still in pharmacies. */
  withdrawing?: boolean;
}

/**
 * Rates of the Finnish reimbursement categories (sairausvakuutuslaki): basic 40 %, lower special
 * 65 %, higher special 100 %, written as a percentage or by name.
 */
function rateOf(raw: string): number | null {
  const text = raw.toLowerCase();
  const percent = /^(\d{2,3})\s*%?$/.exec(text.trim());
  if (percent && ['40', '65', '100'].includes(percent[1]!)) return Number(percent[1]);
  if (text.includes('ylempi')) return 100;
  if (text.includes('alempi')) return 65;
  if (text.includes('perus')) return 40;
  return null;
}

function euro(raw: string, label: string): number {
  const value = parseFrenchNumber(raw.replace(/€|EUR|e$/gi, ''));
  if (value === null || value < 0) throw new RowError(`${label} "${raw}" is not an amount in EUR`);
  return Math.round(value * 100) / 100;
}

/** Reads one Kela row; a missing Vnr or an unreadable price throws a RowError. */
export function kelaPrices(header: readonly string[], row: DelimitedRow): KelaPrices {
  const get = (field: KelaField): string => {
    const column = pickColumn(header, KELA_COLUMNS[field]);
    return column ? row.get(column) : '';
  };
  const raw = get('vnr');
  // The Vnr column reads "poistumassa" (being withdrawn) for packs no longer at the wholesaler.
  const vnr = normaliseIdentifier('fi_vnr', raw.replace(/\D/g, '').padStart(6, '0'));
  if (raw === '' || !vnr || !/\d/.test(raw)) throw new RowError(`Vnr "${raw}" is not a 6-digit Vnr`);
  const prices: Price[] = [];
  for (const [field, kind, label] of [['retail', 'public', 'Myyntihinta'], ['wholesale', 'ex_factory', 'Tukkuhinta'], ['reference', 'reimbursed', 'Viitehinta']] as const) {
    const cell = get(field);
    if (cell !== '') prices.push({ amount: euro(cell, label), currency: 'EUR', kind });
  }
  const out: KelaPrices = { vnr, prices };
  if (/poistumassa/i.test(raw)) out.withdrawing = true;
  const category = get('reimbursement');
  if (category !== '') {
    const rate = rateOf(category);
    if (rate === null) throw new RowError(`Vnr ${vnr}: korvattavuus "${category}" is not 40, 65 or 100 %`);
    out.reimbursementRate = rate;
  }
  if (get('group') !== '') out.substitutionGroup = get('group');
  return out;
}
