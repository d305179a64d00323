/** Resolvers of substances: the substance view and name → UNII cross-reference. */
import { validationError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { metaFor } from '../sources/status.ts';
import type { AtcNode } from '../classification/atc.ts';
import { isValidUnii } from '../../vocabulary/check-digits.ts';
import { resolveSubstanceName } from './substances.ts';
import type { SubstanceRow, XrefMatch } from './substances.ts';

/** UNIIs are compared upper case; provisional keys (`name:…`, `bdpm:…`) exactly as stored. */
function substanceKey(raw: string): string {
  const key = raw.trim();
  if (/^[A-Za-z0-9]{10}$/.test(key)) {
    const unii = key.toUpperCase();
    if (!isValidUnii(unii)) {
      throw validationError(`Invalid request: "${key}" is not a valid UNII (its check character does not match).`, [
        { location: 'path', field: 'unii', message: 'fails the UNII check character' },
      ]);
    }
    return unii;
  }
  return key;
}

const substanceFields = {
  moiety: (s: SubstanceRow, _: unknown, ctx: RequestContext) =>
    (s.moietyUnii === s.unii ? null : ctx.loaders.catalogue.substance.load(s.moietyUnii)),
  salts: (s: SubstanceRow, _: unknown, ctx: RequestContext) => ctx.loaders.catalogue.salts.load(s.moietyUnii),
  atcClasses: async (s: SubstanceRow, _: unknown, ctx: RequestContext) => {
    const nodes = await ctx.loaders.atcNode.loadMany(s.atcCodes);
    return nodes.filter((n): n is AtcNode => n !== null && !(n instanceof Error));
  },
  classes: (s: SubstanceRow, _: unknown, ctx: RequestContext) => ctx.loaders.catalogue.substanceClasses.load(s.unii),
  drugCount: async (s: SubstanceRow, _: unknown, ctx: RequestContext) => (await ctx.loaders.catalogue.moietyDrugs.load(s.moietyUnii)).count,
  markets: async (s: SubstanceRow, _: unknown, ctx: RequestContext) => (await ctx.loaders.catalogue.moietyDrugs.load(s.moietyUnii)).markets,
  drugs: async (s: SubstanceRow, _: unknown, ctx: RequestContext) => (await ctx.loaders.catalogue.moietyDrugs.load(s.moietyUnii)).drugs,
  identity: (s: SubstanceRow, _: unknown, ctx: RequestContext) => ctx.loaders.catalogue.substanceIdentity.load(s.unii),
  links: async (s: SubstanceRow, _: unknown, ctx: RequestContext) => {
    const identity = await ctx.loaders.catalogue.substanceIdentity.load(s.unii);
    return identity?.key ? ctx.loaders.catalogue.identityMembers.load(identity.key) : [];
  },
  meta: async (s: SubstanceRow, _: unknown, ctx: RequestContext) => {
    const { drugs } = await ctx.loaders.catalogue.moietyDrugs.load(s.moietyUnii);
    return metaFor(ctx.loaders.source, [s.source, ...drugs.flatMap((d) => d.sources)]);
  },
};

interface Xref extends XrefMatch {
  query: string;
}

export const substanceResolvers = {
  Query: {
    substance: (_: unknown, args: { unii: string }, ctx: RequestContext) => ctx.loaders.catalogue.substance.load(substanceKey(args.unii)),
    substanceXref: async (_: unknown, args: { name: string }, ctx: RequestContext): Promise<Xref | null> => {
      if (args.name.trim() === '') {
        throw validationError('Invalid request: query name must not be blank.', [{ location: 'query', field: 'name', message: 'must not be blank' }]);
      }
      const match = await resolveSubstanceName(ctx.db, args.name);
      return match ? { ...match, query: args.name } : null;
    },
  },
  Substance: substanceFields,
  SubstanceXref: {
    unii: (x: Xref) => x.substance.unii,
    name: (x: Xref) => x.substance.name,
    names: (x: Xref) => x.substance.names,
    provisional: (x: Xref) => x.substance.provisional,
    moietyUnii: (x: Xref) => x.substance.moietyUnii,
    codes: (x: Xref) => ({ unii: x.substance.unii, rxcui: x.substance.rxcui, inchikey: x.substance.inchikey, atc: x.substance.atcCodes }),
    structure: (x: Xref) => ({ formula: x.substance.formula, smiles: x.substance.smiles, inchikey: x.substance.inchikey }),
    meta: (x: Xref, _: unknown, ctx: RequestContext) => metaFor(ctx.loaders.source, [x.substance.source]),
  },
};
