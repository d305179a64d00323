/** Resolvers of the drug profile: sections gathered in parallel, null sections explained. */
import type { RequestContext } from '../context.ts';
import { snakeCase } from '../../platform/graphql/snake-aliases.ts';
import { metaFor } from '../sources/status.ts';
import type { DrugRow } from './drug-rows.ts';
import { availability, informationFrom, marketPricing, PROFILE_LANGUAGES, REASONS } from './profile.ts';
import type { Section } from './profile.ts';
import { interactionsForAtc } from './profile-interactions.ts';
import type { ProfileInteractions } from './profile-interactions.ts';

interface Profile {
  drug: DrugRow;
  information: ReturnType<typeof informationFrom>;
  swissPricing: Awaited<ReturnType<typeof marketPricing>>['CH'];
  usPricing: Awaited<ReturnType<typeof marketPricing>>['US'];
  interactions: ProfileInteractions | null;
  adverseEventSignal: null;
  availability: Array<{ country: string; count: number }>;
  unavailable: Array<{ section: string; reason: string }>;
}

/** Builds the profile of a known drug; every lookup runs at once. */
export async function buildProfile(ctx: RequestContext, drug: DrugRow): Promise<Profile> {
  const languages = await ctx.loaders.catalogue.monographLanguages.load(drug.id);
  const lang = PROFILE_LANGUAGES.find((l) => languages.includes(l));
  const [monograph, pricing, countries, interactions] = await Promise.all([
    lang ? ctx.loaders.catalogue.monograph.load(`${drug.id}|${lang}`) : Promise.resolve(null),
    marketPricing(ctx.db, drug),
    availability(ctx.db, drug),
    drug.atcCode ? interactionsForAtc(ctx.db, drug.atcCode) : Promise.resolve(null),
  ]);
  const sections = {
    information: informationFrom(monograph),
    swissPricing: pricing.CH,
    usPricing: pricing.US,
    interactions,
    // No adverse-event reporting source is ingested yet: null, with the reason below.
    adverseEventSignal: null,
  } satisfies Record<Section, unknown>;
  const unavailable = (Object.keys(REASONS) as Section[])
    .filter((s) => sections[s] === null)
    .map((s) => ({ section: snakeCase(s), reason: REASONS[s] }));
  return { drug, ...sections, availability: countries, unavailable };
}

export const profileResolvers = {
  DrugProfile: {
    packPrices: (p: Profile, _: unknown, ctx: RequestContext) => ctx.loaders.catalogue.packs.load(p.drug.id),
    meta: (p: Profile, _: unknown, ctx: RequestContext) => {
      const priced = [p.swissPricing, p.usPricing].flatMap((m) => m?.packs ?? []);
      const rules = p.interactions?.rules ?? [];
      return metaFor(ctx.loaders.source, [...p.drug.sources, ...priced.map((pack) => pack.source), ...rules.map((r) => r.source)]);
    },
  },
};
