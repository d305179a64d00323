/**
 * One pack's price per DDD as the market overview and the coverage report compute it: the
 * pack row both read (its product's route, form, name and ingredient, its preferred price
 * and the DDDs of its ATC code), the choice of route and strength, the salt/base factor,
 * and the conversion to USD through the newest ECB reference rates.
 */
import type { Queryable } from '../../platform/db.ts';
import { normalisePackUnit, parsePackSize } from '../../vocabulary/pack-size.ts';
import { pricePerDdd } from './price-per-ddd.ts';
import type { PackInput, PackPrice } from './price-per-ddd.ts';
import type { ReasonCode } from './reasons.ts';
import { dddRefersToSalt, readSalt } from './salt-base.ts';
import { dddsForProduct } from './who-route.ts';
import type { RoutedDdd } from './who-route.ts';

/** Price kinds in order of preference: what a patient or payer pays first. */
export const PRICE_KINDS = ['public', 'list', 'tariff', 'reimbursed', 'ex_factory'];

/**
 * Sources whose strengths of a salt may be of the salt or of its moiety: the NDC directory
 * lists `AMLODIPINE BESYLATE 5 mg/1` (5 mg of amlodipine) and `METOPROLOL TARTRATE 50 mg/1`
 * (50 mg of the tartrate) alike.
 */
const SALT_BASIS_UNSTATED = new Set(['fda-ndc', 'fda-ndc-unfinished', 'us-openfda-ndc']);

/** A pack with what its price per DDD needs (PACK_COLUMNS). */
export interface PackRow {
  country: string; source: string; atc_code: string | null; route: string | null; dose_form: string | null;
  product_name: string; substance_name: string | null;
  units: string | null; unit: string | null; description: string | null; quantity: { value: number; unit: string } | null;
  strength_value: string | null; strength_unit: string | null; strength_text: string | null;
  moiety: { strength_value?: number; strength_unit?: string; strength_text?: string } | null;
  amount: string | null; currency: string | null; kind: string | null; ddds: RoutedDdd[] | null;
}

/** The columns of PackRow, for a query over `products p`, `packs k`, an ingredient `pi` and its substance `s` (see packPriceJoins). */
export const PACK_COLUMNS = `
  p.country, p.source, p.atc_code, p.route, p.dose_form, p.product_name, s.name AS substance_name, k.units, k.unit, k.description,
  k.record -> 'quantity' AS quantity, pi.strength_value, pi.strength_unit,
  p.record -> 'ingredients' -> pi.position ->> 'strength_text' AS strength_text,
  p.record -> 'ingredients' -> pi.position -> 'moiety' AS moiety,
  pr.amount, pr.currency, pr.kind, d.ddds`;

/**
 * The price and DDD joins PACK_COLUMNS reads (after `packs k` and `products p`); `kinds` is the
 * placeholder of the PRICE_KINDS parameter. A pack several sources describe is priced as its
 * merge group (0600_merge.sql): the first price of the preferred kind any member gives, its own first.
 */
export const packPriceJoins = (kinds: string): string => `
  LEFT JOIN LATERAL (SELECT pp.amount, pp.currency, pp.kind FROM packs x JOIN pack_prices pp ON pp.pack_id = x.id
                      WHERE x.id = coalesce(k.merged_into, k.id) OR x.merged_into = coalesce(k.merged_into, k.id)
                      ORDER BY array_position(${kinds}::text[], pp.kind) NULLS LAST, x.id <> k.id LIMIT 1) pr ON true
  LEFT JOIN LATERAL (SELECT jsonb_agg(jsonb_build_object('value', value::float8, 'unit', unit, 'route', route, 'note', note) ORDER BY route, unit) AS ddds
                       FROM atc_ddd WHERE code = p.atc_code) d ON true`;

const FX = `SELECT to_char(rate_date, 'YYYY-MM-DD') AS date, currency, per_eur, source FROM fx_rates
             WHERE rate_date = (SELECT max(rate_date) FROM fx_rates)`;

/** The newest reference rates and a converter to USD (null without a rate for the currency). */
export interface FxRates {
  date: string | null;
  source: string | null;
  perEur: Map<string, number>;
  usdOf(amount: number, currency: string): number | null;
}

/** Reads the newest ECB reference date's rates (one round trip). */
export async function readFx(db: Queryable): Promise<FxRates> {
  const { rows } = await db.query<{ date: string; currency: string; per_eur: string; source: string }>(FX);
  const perEur = new Map(rows.map((r) => [r.currency, Number(r.per_eur)]));
  const usd = perEur.get('USD');
  return {
    date: rows[0]?.date ?? null,
    source: rows[0]?.source ?? null,
    perEur,
    usdOf(amount, currency) {
      const rate = perEur.get(currency);
      return usd === undefined || rate === undefined ? null : (amount / rate) * usd;
    },
  };
}

function num(v: string | null): number | null {
  return v === null ? null : Number(v);
}

/** The DDDs of the product's WHO route (route words, dose form, name, pack unit), or why none. */
function dddsOf(r: PackRow): Pick<PackInput, 'ddd' | 'dddReason'> {
  const unit = normalisePackUnit(r.unit)?.unit ?? parsePackSize(r.description)?.unit ?? null;
  const chosen = dddsForProduct({ route: r.route, doseForm: r.dose_form, name: r.product_name, unit }, r.ddds ?? []);
  if ('reason' in chosen) return { ddd: [], dddReason: chosen.reason };
  return { ddd: chosen.ddds.map((d) => ({ value: Number(d.value), unit: d.unit })) };
}

function hasMoiety(r: PackRow): boolean {
  const m = r.moiety;
  return m !== null && (typeof m.strength_value === 'number' || Boolean(m.strength_text));
}

/** The strength to count: the moiety's where the register gives it (DDDs are of the moiety). */
function strengthOf(r: PackRow): { strengthValue: number | null; strengthUnit: string | null; strengthText: string | null } {
  const m = r.moiety;
  if (m && hasMoiety(r)) {
    return { strengthValue: m.strength_value ?? null, strengthUnit: m.strength_unit ?? null, strengthText: m.strength_text ?? null };
  }
  return { strengthValue: num(r.strength_value), strengthUnit: r.strength_unit, strengthText: r.strength_text };
}

/** Which strength a pack's price per DDD counted, and why (WHO DDDs are of the moiety unless WHO notes otherwise). */
export type StrengthBasis = 'moiety' | 'substance' | 'salt_ddd' | 'salt_converted' | 'salt_unconverted';

/** The strength basis of a pack, its moiety factor (or why none), and the sentence a user reads. */
export interface StrengthChoice {
  basis: StrengthBasis;
  factor: number | { reason: ReasonCode };
  why: string;
}

/**
 * Moiety per mass of the strength's substance: 1 for a moiety (or the register's moiety
 * strength, or a DDD WHO gives of the salt itself), the salt's base fraction, or why not.
 */
export function strengthChoice(r: PackRow): StrengthChoice {
  if (hasMoiety(r)) return { basis: 'moiety', factor: 1, why: 'the register gives the strength of the moiety' };
  const salt = readSalt(r.substance_name);
  if (!salt) return { basis: 'substance', factor: 1, why: 'the substance is not a salt' };
  if ((r.ddds ?? []).some((d) => dddRefersToSalt(d.note, salt))) {
    return { basis: 'salt_ddd', factor: 1, why: `WHO gives the DDD of the ${salt.counterIon} salt itself` };
  }
  if (SALT_BASIS_UNSTATED.has(r.source)) {
    return { basis: 'salt_unconverted', factor: { reason: 'salt_basis_unknown' }, why: 'the register does not say whether the strength is of the salt or of the moiety' };
  }
  if (salt.baseFraction === null) {
    return { basis: 'salt_unconverted', factor: { reason: 'salt_not_converted' }, why: `the strength is of the ${salt.counterIon} salt and its moiety's molar mass is not known` };
  }
  return {
    basis: 'salt_converted', factor: salt.baseFraction,
    why: `the strength is of the ${salt.counterIon} salt; WHO's DDD is of the moiety, ${round3(salt.baseFraction)} of the salt's mass`,
  };
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/** The pack's price per DDD in USD, its basis and, short of per_ddd, why. */
export function priceOfPack(r: PackRow, usdOf: (amount: number, currency: string) => number | null): PackPrice {
  return pricePerDdd({
    units: num(r.units), unit: r.unit, description: r.description, quantity: r.quantity, ...strengthOf(r),
    name: r.product_name, moietyFactor: strengthChoice(r).factor,
    priceUsd: r.amount !== null && r.currency ? usdOf(Number(r.amount), r.currency) : null,
    ...dddsOf(r),
  });
}

/** One pack's price per DDD with what it was computed from: the price used and the strength basis. */
export interface PackPricing extends PackPrice {
  priceKind: string | null;
  priceAmount: number | null;
  priceCurrency: string | null;
  strengthBasis: StrengthBasis;
  strengthBasisWhy: string;
}

/** priceOfPack, explained: the price kind and amount used and which strength was counted. */
export function explainPackPrice(r: PackRow, usdOf: (amount: number, currency: string) => number | null): PackPricing {
  const choice = strengthChoice(r);
  return {
    ...priceOfPack(r, usdOf),
    priceKind: r.kind, priceAmount: r.amount === null ? null : Number(r.amount), priceCurrency: r.currency,
    strengthBasis: choice.basis, strengthBasisWhy: choice.why,
  };
}
