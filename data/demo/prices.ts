/**
 * Pack prices in local currency with plausible magnitudes: a curated reference price per
 * unit (EUR, originator, German level) scaled by strength, pack size, the country's price
 * level, the generic discount and the exchange rate, with a small seeded jitter. Switzerland
 * and Germany also get an ex-factory price and the retail price built on it the way their
 * margin rules do (SL distribution share and VAT; AMPreisV surcharges and VAT).
 */
import type { Jurisdiction, Price, SlEntry } from '../../workers/ingest/snapshot.ts';
import type { CuratedCountry } from './curated.ts';
import { rng } from './prng.ts';

export const BASE_PRICE_DATE = '2025-01-01';

const round2 = (n: number): number => Math.round(n * 100) / 100;
const round05 = (n: number): number => Math.round(n * 20) / 20;

export interface PriceInput {
  country: Jurisdiction;
  cc: CuratedCountry;
  /** Reference EUR price of one unit of the first strength. */
  ref: number;
  /** Strength relative to the first strength of the form (1 for the first). */
  strengthRatio: number;
  units: number;
  generic: boolean;
  otc: boolean;
  seed: string;
}

export interface PackPricing {
  prices: Price[];
  /** Retail price in local currency (the SL capped price in CH). */
  retail: number;
  exFactory?: number;
}

/** Swiss distribution share on the ex-factory price (percentage plus fixed tier), then 2.6 % VAT. */
function swissPublic(exFactory: number): number {
  const fixed = exFactory < 5 ? 4 : exFactory < 11 ? 8 : exFactory < 15 ? 12 : exFactory < 880 ? 16 : 60;
  const share = exFactory < 880 ? 0.12 : 0.07;
  return round05((exFactory * (1 + share) + fixed) * 1.026);
}

/** German retail price of a prescription medicine: wholesale 3.15 % + 0.73, pharmacy 3 % + 8.35 + 0.21, 19 % VAT. */
function germanPublic(exFactory: number): number {
  const wholesale = exFactory * 1.0315 + 0.73;
  return round2((wholesale * 1.03 + 8.35 + 0.21) * 1.19);
}

export function packPricing(input: PriceInput, factor = 1, validFrom = BASE_PRICE_DATE): PackPricing {
  const { cc } = input;
  const jitter = 0.92 + rng(`price|${input.seed}`).next() * 0.16;
  const unitEur = input.ref * input.strengthRatio ** 0.6;
  const packEur = unitEur * input.units ** 0.92 + 1.5;
  const target = packEur * cc.level * (input.generic ? cc.generic : 1) * jitter * factor;
  const local = Math.max(target * cc.fx, cc.currency === 'USD' ? 4 : 1);
  const price = (amount: number, kind: string): Price => ({ amount, currency: cc.currency, kind, valid_from: validFrom });

  if (input.country === 'CH') {
    const exFactory = round2(local * 0.62);
    const retail = swissPublic(exFactory);
    return { prices: [price(retail, 'public'), price(exFactory, 'ex_factory')], retail, exFactory };
  }
  if (input.country === 'DE' && !input.otc) {
    const exFactory = round2(Math.max(local * 0.55, 0.5));
    const retail = germanPublic(exFactory);
    return { prices: [price(retail, 'public'), price(exFactory, 'ex_factory')], retail, exFactory };
  }
  const kind = cc.price_kinds[0] ?? 'public';
  const retail = round2(local);
  return { prices: [price(retail, kind)], retail };
}

export interface SlInput {
  listed: boolean;
  generic: boolean;
  co40: boolean;
  limitation: { text: string; points?: number } | null;
  year: number;
}

/** Spezialitätenliste entry of a Swiss pack. */
export function slEntry(pricing: PackPricing, sl: SlInput): SlEntry {
  if (!sl.listed) return { listed: false };
  const entry: SlEntry = {
    listed: true,
    public_price: pricing.retail,
    coinsurance_percent: sl.co40 ? 40 : 10,
    limitation: sl.limitation,
    flag: sl.generic ? 'G' : 'O',
    listed_since: `${Math.max(sl.year + 1, 1996)}-${sl.generic ? '07' : '04'}-01`,
  };
  if (pricing.exFactory !== undefined) entry.ex_factory_price = pricing.exFactory;
  return entry;
}

/** French statutory reimbursement rate for a prescription pack, by therapeutic area. */
export function frenchRate(atc: string, ref: number): number {
  if (ref >= 20 || atc.startsWith('L01') || atc.startsWith('L04')) return 100;
  if (atc.startsWith('R06') || atc.startsWith('A07') || atc.startsWith('R05')) return 30;
  return 65;
}
