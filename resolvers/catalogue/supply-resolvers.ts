/** Resolvers of supply (schema/supply.graphql): pack supply, the product's rolled-up status, GET /v1/drugs/{id}/supply. */
import type { RequestContext } from '../context.ts';
import { metaFor } from '../sources/status.ts';
import type { DatedPackRow } from './dated-record.ts';
import type { DrugRow } from './drug-rows.ts';
import { isUuid } from './drug-rows.ts';
import { productSupplyStatus, supplyOf } from './supply.ts';
import type { DrugSupply } from './supply.ts';

export const supplyResolvers = {
  Query: {
    drugSupply: async (_: unknown, args: { id: string }, ctx: RequestContext): Promise<DrugSupply | null> => {
      const drug = isUuid(args.id) ? await ctx.loaders.catalogue.drug.load(args.id.toLowerCase()) : null;
      return drug ? supplyOf(ctx, drug) : null;
    },
  },
  Pack: {
    // A record as of a date carries the supply as it stood then (dated-supply.ts), read with its history.
    supply: (pack: DatedPackRow, _: unknown, ctx: RequestContext) => (pack.dated ? pack.dated.supply ?? null : ctx.loaders.catalogue.packSupply.load(pack.id)),
  },
  Drug: {
    supplyStatus: (drug: DrugRow, _: unknown, ctx: RequestContext) => (drug.dated ? drug.dated.supplyStatus ?? null : productSupplyStatus(ctx, drug)),
  },
  DrugSupply: {
    meta: (s: DrugSupply, _: unknown, ctx: RequestContext) => {
      const supplySources = [s.authorisation, ...s.packs.map((p) => p.supply), ...s.alternatives.sameCountry.map((p) => p.supply),
        ...s.alternatives.neighbouringMarkets.map((p) => p.supply)].flatMap((x) => (x ? [x.source] : []));
      const drugs = [s.drug, ...s.alternatives.sameCountry.map((p) => p.drug), ...s.alternatives.neighbouringMarkets.map((p) => p.drug)];
      return metaFor(ctx.loaders.source, [...drugs.flatMap((d) => d.sources), ...supplySources]);
    },
  },
};
