/**
 * Resolvers of the catalogue domain: search, the drug record and its nested fields,
 * lookup by code, equivalents and monographs. Every nested field reads through the
 * request's dataloaders, so lists of drugs cost a constant number of round trips.
 */
import { ApiError, validationError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { metaFor } from '../sources/status.ts';
import { atcAncestorCodes } from '../classification/atc.ts';
import type { AtcNode } from '../classification/atc.ts';
import { atcCodeSourceOf, isUuid } from './drug-rows.ts';
import type { DrugRow } from './drug-rows.ts';
import { searchDrugs } from './search.ts';
import type { SearchResult } from './search.ts';
import { loadRecord, recordByCode } from './record-rows.ts';
import { factFields, ingredientFields, ingredientsOf } from './facts.ts';
import { equivalentsOf } from './equivalents.ts';
import type { EquivalentsResult } from './equivalents.ts';
import { fhirMedication } from './fhir.ts';
import type { MonographRow } from './loaders.ts';
import { readerOf } from './reader.ts';
import { parseAsOf } from './as-of.ts';
import { datedDrugByCode, datedDrugById } from './dated-drug.ts';
import type { DatedPackRow } from './dated-record.ts';
import { substanceResolvers } from './substance-resolvers.ts';
import { buildProfile, profileResolvers } from './profile-resolvers.ts';

/** Largest page of the typeahead; documented in docs/api-decisions.md. */
export const MAX_SEARCH_LIMIT = 100;
/** Largest per-country list of equivalents. */
export const MAX_PER_COUNTRY = 50;
export const MONOGRAPH_LANGUAGES = ['de', 'fr', 'it'] as const;

/** A bounded integer argument, or a 422 naming it (GraphQL callers skip the REST schemas). */
export function boundedInt(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw validationError(`Invalid request: ${name} must be an integer from ${min} to ${max}.`, [
      { location: 'query', field: name, message: `must be between ${min} and ${max}` },
    ]);
  }
  return value;
}

/** Loads a drug by id; null for ids that are not uuids (they cannot exist). */
export function loadDrug(ctx: RequestContext, id: string): Promise<DrugRow | null> {
  return isUuid(id) ? ctx.loaders.catalogue.drug.load(id.toLowerCase()) : Promise.resolve(null);
}

async function atcNodeOf(drug: DrugRow, ctx: RequestContext): Promise<AtcNode | null> {
  return drug.atcCode ? ctx.loaders.atcNode.load(drug.atcCode) : null;
}

/** Each request's ATC chains by code, keyed by its ATC node loader (made once per request). */
const ATC_CHAINS = new WeakMap<object, Map<string, Promise<AtcNode[]>>>();

/**
 * The ATC chain of a code, root first, once per request and code: the drugs of a page
 * mostly share their codes (a search by ATC code: all of them), and loading five nodes
 * per drug was 250 loads, arrays and filters for 50 drugs of one code.
 */
function atcChainOf(ctx: RequestContext, code: string): Promise<AtcNode[]> {
  const loader = ctx.loaders.atcNode;
  let byCode = ATC_CHAINS.get(loader);
  if (!byCode) ATC_CHAINS.set(loader, (byCode = new Map()));
  let chain = byCode.get(code);
  if (!chain) {
    chain = loader.loadMany([...atcAncestorCodes(code), code]).then((nodes) => nodes.filter((n): n is AtcNode => n !== null && !(n instanceof Error)));
    byCode.set(code, chain);
  }
  return chain;
}

/** The loaders a drug's fields read: its own when reconstructed as of a date (dated-record.ts). */
const read = (drug: DrugRow, ctx: RequestContext) => readerOf(drug, ctx.loaders.catalogue);

/** A drug record, or the record as of `asOf` (validated first: a bad value is 422 whatever the id). */
async function drugAsOf(ctx: RequestContext, args: { id: string; asOf?: string | null }): Promise<DrugRow | null> {
  if (args.asOf === undefined || args.asOf === null) return loadRecord(ctx, args.id);
  return datedDrugById(ctx, args.id, parseAsOf(args.asOf, ctx.now()));
}

const drugFields = {
  substanceName: async (drug: DrugRow, _: unknown, ctx: RequestContext) => {
    const names = (await read(drug, ctx).ingredients.load(drug.id)).map((i) => i.name ?? i.unii);
    return names.length ? [...new Set(names)].join(' + ') : null;
  },
  matchedBy: (drug: DrugRow) => drug.matchedBy ?? null,
  atcCodeSource: (drug: DrugRow) => (drug.atcCodeSource !== undefined ? drug.atcCodeSource : atcCodeSourceOf(drug.atcCode, null, null)),
  ingredients: (drug: DrugRow, _: unknown, ctx: RequestContext) => ingredientsOf(drug, ctx),
  ...factFields,
  identifiers: (drug: DrugRow, _: unknown, ctx: RequestContext) => read(drug, ctx).identifiers.load(drug.id),
  packs: (drug: DrugRow, _: unknown, ctx: RequestContext) => read(drug, ctx).packs.load(drug.id),
  matchedPack: (drug: DrugRow, _: unknown, ctx: RequestContext) => (drug.matchedPackId ? read(drug, ctx).pack.load(drug.matchedPackId) : null),
  atcChain: (drug: DrugRow, _: unknown, ctx: RequestContext) => (drug.atcCode ? atcChainOf(ctx, drug.atcCode) : []),
  monographLanguages: (drug: DrugRow, _: unknown, ctx: RequestContext) => read(drug, ctx).monographLanguages.load(drug.id),
  monograph: (drug: DrugRow, args: { lang: string }, ctx: RequestContext) => read(drug, ctx).monograph.load(`${drug.id}|${args.lang}`),
  classes: (drug: DrugRow, _: unknown, ctx: RequestContext) => read(drug, ctx).productClasses.load(drug.id),
  fhirMedication: async (drug: DrugRow, _: unknown, ctx: RequestContext) => {
    const [ingredients, identifiers, atc] = await Promise.all([
      read(drug, ctx).ingredients.load(drug.id),
      read(drug, ctx).identifiers.load(drug.id),
      atcNodeOf(drug, ctx),
    ]);
    return fhirMedication(drug, ingredients, identifiers, atc?.name ?? null);
  },
  centralAuthorisation: (drug: DrugRow, _: unknown, ctx: RequestContext) => read(drug, ctx).centralAuthorisation.load(drug.id),
  meta: async (drug: DrugRow, _: unknown, ctx: RequestContext) => {
    // The EMA record contributes to the answer when the product links to one.
    const central = await read(drug, ctx).centralAuthorisation.load(drug.id);
    const meta = await metaFor(ctx.loaders.source, central ? [...drug.sources, central.source] : drug.sources);
    return drug.dated ? { ...meta, ...drug.dated.meta } : meta;
  },
  asOf: (drug: DrugRow) => drug.dated?.asOf ?? null,
};

/** The monograph in `lang`, or a 404 that names the languages the drug does have. */
async function monographOf(ctx: RequestContext, args: { id: string; lang: string }): Promise<MonographRow | null> {
  if (!(MONOGRAPH_LANGUAGES as readonly string[]).includes(args.lang)) {
    throw validationError(`Invalid request: lang must be one of ${MONOGRAPH_LANGUAGES.join(', ')}.`, [{ location: 'query', field: 'lang', message: 'is not supported' }]);
  }
  const drug = await loadDrug(ctx, args.id);
  if (!drug) return null;
  const [monograph, languages] = await Promise.all([
    ctx.loaders.catalogue.monograph.load(`${drug.id}|${args.lang}`),
    ctx.loaders.catalogue.monographLanguages.load(drug.id),
  ]);
  if (monograph) return monograph;
  const available = languages.length ? `available: ${languages.join(', ')}` : 'it has no monograph';
  throw new ApiError('not_found', `This drug has no monograph in "${args.lang}" (${available}).`);
}

/** Status fields of a pack of a dated record; null on every other pack. */
const datedPackFields = {
  status: (pack: DatedPackRow) => pack.dated?.span.status ?? null,
  statusReason: (pack: DatedPackRow) => pack.dated?.span.reason ?? null,
  statusSince: (pack: DatedPackRow) => pack.dated?.span.since ?? null,
  statusUntil: (pack: DatedPackRow) => pack.dated?.span.until ?? null,
  recall: (pack: DatedPackRow) => pack.dated?.span.recall ?? null,
};

export const catalogueResolvers = {
  Query: {
    drugs: (_: unknown, args: { q: string; country?: string | null; atc?: string | null; limit: number }, ctx: RequestContext) =>
      searchDrugs(ctx.db, {
        q: args.q,
        country: args.country ? args.country.toUpperCase() : null,
        atc: args.atc ?? null,
        limit: boundedInt('limit', args.limit, 1, MAX_SEARCH_LIMIT),
      }, ctx.loaders.catalogue.ingredients),
    drug: (_: unknown, args: { id: string; asOf?: string | null }, ctx: RequestContext) => drugAsOf(ctx, args),
    drugByCode: (_: unknown, args: { system: string; code: string; asOf?: string | null }, ctx: RequestContext) =>
      (args.asOf === undefined || args.asOf === null
        ? recordByCode(ctx, args.system, args.code)
        : datedDrugByCode(ctx, args.system, args.code, parseAsOf(args.asOf, ctx.now()))),
    drugEquivalents: async (_: unknown, args: { id: string; perCountry: number }, ctx: RequestContext) => {
      const perCountry = boundedInt('per_country', args.perCountry, 1, MAX_PER_COUNTRY);
      const drug = await loadDrug(ctx, args.id);
      return drug ? equivalentsOf(ctx.db, drug, perCountry) : null;
    },
    drugMonograph: (_: unknown, args: { id: string; lang: string }, ctx: RequestContext) => monographOf(ctx, args),
    drugProfile: async (_: unknown, args: { id: string }, ctx: RequestContext) => {
      // The profile embeds the whole record: read it in one statement like Query.drug.
      const drug = await loadRecord(ctx, args.id);
      return drug ? buildProfile(ctx, drug) : null;
    },
    ...substanceResolvers.Query,
  },
  DrugProfile: profileResolvers.DrugProfile,
  Substance: substanceResolvers.Substance,
  SubstanceXref: substanceResolvers.SubstanceXref,
  Drug: drugFields,
  Ingredient: ingredientFields,
  DrugSearch: {
    count: (result: SearchResult) => result.results.length,
    meta: (result: SearchResult, _: unknown, ctx: RequestContext) => metaFor(ctx.loaders.source, result.results.flatMap((d) => d.sources)),
  },
  Pack: {
    identifiers: (pack: DatedPackRow, _: unknown, ctx: RequestContext) => pack.dated?.identifiers ?? ctx.loaders.catalogue.packIdentifiers.load(pack.id),
    prices: (pack: DatedPackRow, _: unknown, ctx: RequestContext) => pack.dated?.prices ?? ctx.loaders.catalogue.prices.load(pack.id),
    ...datedPackFields,
  },
  SourceStatus: {
    historyStarts: (source: { id: string }, _: unknown, ctx: RequestContext) => ctx.loaders.catalogue.historyStart.load(source.id),
  },
  Monograph: {
    availableLanguages: (m: MonographRow, _: unknown, ctx: RequestContext) => ctx.loaders.catalogue.monographLanguages.load(m.productId),
    meta: async (m: MonographRow, _: unknown, ctx: RequestContext) => {
      const drug = await ctx.loaders.catalogue.drug.load(m.productId);
      return metaFor(ctx.loaders.source, drug ? drug.sources : []);
    },
  },
  Equivalents: {
    meta: (e: EquivalentsResult, _: unknown, ctx: RequestContext) =>
      metaFor(ctx.loaders.source, [e.drug, ...[...e.sameMedicine, ...e.sameSubstance].flatMap((g) => g.drugs)].flatMap((d) => d.sources)),
  },
};
