/**
 * GET /v1/drugs/{id}/supply: a drug's supply per country and, when it is short, what a user
 * can switch to. "The same medicine" is the equivalents' medicine signature (same moieties,
 * strengths, dose form and route: equivalents.ts); only marketed packs that no publication
 * reports short are offered, first in the drug's own country, then in its neighbouring markets
 * (vocabulary/supply.ts NEIGHBOURS). Without the substance layer there is no signature to
 * compare, so only the drug's own country is summed up and nothing is offered.
 */
import type { Queryable } from '../../platform/db.ts';
import { NEIGHBOURS, isShort, worstStatus } from '../../vocabulary/supply.ts';
import type { SupplyStatus } from '../../vocabulary/supply.ts';
import type { RequestContext } from '../context.ts';
import { PRODUCT_COLUMNS, toDrug } from './drug-rows.ts';
import type { DrugRow, ProductRecord } from './drug-rows.ts';
import { basisOf } from './equivalents.ts';
import type { Basis } from './equivalents.ts';
import type { PackRow } from './loaders.ts';
import { REPORTS_OF_PACK, toSupply } from './supply-rows.ts';
import type { PackSupply } from './supply-rows.ts';

/** Alternatives listed in the drug's country, and per neighbouring country. */
export const SAME_COUNTRY_LIMIT = 20;
export const PER_NEIGHBOUR_LIMIT = 5;

export interface SupplyPackEntry {
  drug: DrugRow;
  packId: string;
  description: string;
  country: string;
  supply: PackSupply | null;
}

export interface SupplyCountry {
  country: string;
  /** Worst status reported in the country; null when no publication reports on its packs. */
  status: SupplyStatus | null;
  /** Marketed packs of the medicine in the country, and how many of them are reported short. */
  packs: number;
  short: number;
}

export interface DrugSupply {
  drug: DrugRow;
  basis: Basis;
  status: SupplyStatus | null;
  authorisation: PackSupply | null;
  packs: SupplyPackEntry[];
  countries: SupplyCountry[];
  alternatives: { sameCountry: SupplyPackEntry[]; neighbouringMarkets: SupplyPackEntry[] };
}

/** The worst of a product's packs and of a report on its authorisation. */
export async function productSupplyStatus(ctx: RequestContext, drug: DrugRow): Promise<SupplyStatus | null> {
  const loaders = ctx.loaders.catalogue;
  const packs = await loaders.packs.load(drug.id);
  const supplies = await Promise.all(packs.map((p) => loaders.packSupply.load(p.id)));
  const authorisation = await loaders.productSupply.load(drug.id);
  return worstStatus([...supplies.map((s) => s?.status), authorisation?.status]);
}

type CountryRow = { country: string; packs: string; short: string; worst: SupplyStatus | null };
type OptionRow = ProductRecord & { pack_id: string; description: string; supply: PackSupply | null };

/** Per country: marketed packs of the medicine, how many are short, the worst status reported. */
async function countriesOf(db: Queryable, signature: string): Promise<SupplyCountry[]> {
  const { rows } = await db.query<CountryRow>(
    `WITH k AS (
       SELECT p.country, (SELECT r.status FROM (${REPORTS_OF_PACK}) r ORDER BY supply_severity(r.status) DESC LIMIT 1) AS status
         FROM products p JOIN packs k ON k.product_id = p.id AND k.merged_into IS NULL AND k.marketing_status = 'active'
        WHERE p.medicine_signature = $1 AND p.marketing_status = 'active' AND p.searchable)
     SELECT country, count(*) AS packs, count(*) FILTER (WHERE status IS NOT NULL AND status <> 'available') AS short,
            (array_agg(status ORDER BY supply_severity(status) DESC NULLS LAST))[1] AS worst
       FROM k GROUP BY country ORDER BY country`,
    [signature],
  );
  return rows.map((r) => ({ country: r.country, status: r.worst, packs: Number(r.packs), short: Number(r.short) }));
}

/** Marketed packs of the medicine, not reported short, in `countries`, other products than the drug; `limit` per country. */
async function optionsIn(db: Queryable, drug: DrugRow, countries: readonly string[], limit: number): Promise<SupplyPackEntry[]> {
  if (countries.length === 0) return [];
  const { rows } = await db.query<OptionRow>(
    `SELECT * FROM (
       SELECT ${PRODUCT_COLUMNS}, k.id AS pack_id, k.description, CASE WHEN sup.status IS NOT NULL THEN to_jsonb(sup) END AS supply,
              row_number() OVER (PARTITION BY p.country ORDER BY lower(p.product_name), k.units NULLS LAST, k.id) AS rn
         FROM products p JOIN packs k ON k.product_id = p.id AND k.merged_into IS NULL AND k.marketing_status = 'active'
         LEFT JOIN LATERAL (
           SELECT r.status, r.reason, r.since::text AS since, r.expected_until::text AS "expectedUntil", r.source,
                  to_char(r.fetched_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "fetchedAt"
             FROM (${REPORTS_OF_PACK}) r ORDER BY supply_severity(r.status) DESC, r.fetched_at DESC LIMIT 1) sup ON true
        WHERE p.medicine_signature = $1 AND p.id <> $2 AND p.country = ANY($3::text[]) AND p.marketing_status = 'active' AND p.searchable
          AND (sup.status IS NULL OR sup.status = 'available')) x
      WHERE x.rn <= $4 ORDER BY array_position($3::text[], x.country), x.rn`,
    [drug.medicineSignature, drug.id, countries, limit],
  );
  return rows.map((r) => ({ drug: toDrug(r), packId: r.pack_id, description: r.description, country: r.country, supply: toSupply(r.supply ?? undefined) }));
}

/** The drug's own packs with their supply, and its country alone when no signature links it to others. */
async function ownPacks(ctx: RequestContext, drug: DrugRow): Promise<Array<SupplyPackEntry & { marketed: boolean }>> {
  const loaders = ctx.loaders.catalogue;
  const packs: PackRow[] = await loaders.packs.load(drug.id);
  const supplies = await Promise.all(packs.map((p) => loaders.packSupply.load(p.id)));
  return packs.map((p, i) => ({ drug, packId: p.id, description: p.description, country: drug.country, supply: supplies[i] ?? null, marketed: p.marketingStatus === 'active' }));
}

export async function supplyOf(ctx: RequestContext, drug: DrugRow): Promise<DrugSupply> {
  const basis = basisOf(drug);
  const packs = await ownPacks(ctx, drug);
  const authorisation = await ctx.loaders.catalogue.productSupply.load(drug.id);
  const status = worstStatus([...packs.map((p) => p.supply?.status), authorisation?.status]);
  const signature = basis === 'identity' ? drug.medicineSignature : null;
  const marketed = packs.filter((p) => p.marketed);
  const countries = signature ? await countriesOf(ctx.db, signature) : [{
    country: drug.country, status, packs: marketed.length, short: marketed.filter((p) => isShort(p.supply?.status) || isShort(authorisation?.status)).length,
  }];
  const short = isShort(status);
  const alternatives = signature && short
    ? {
      sameCountry: await optionsIn(ctx.db, drug, [drug.country], SAME_COUNTRY_LIMIT),
      neighbouringMarkets: await optionsIn(ctx.db, drug, NEIGHBOURS[drug.country] ?? [], PER_NEIGHBOUR_LIMIT),
    }
    : { sameCountry: [], neighbouringMarkets: [] };
  return { drug, basis, status, authorisation, packs, countries, alternatives };
}
