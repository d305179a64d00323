/** Resolvers of the classification domain: the ATC tree, its drug lists and classes on every axis. */
import { validationError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { atcAncestorCodes, atcLevel } from './atc.ts';
import type { AtcNode } from './atc.ts';
import { metaFor } from '../sources/status.ts';
import { boundedInt } from '../catalogue/resolvers.ts';
import { DEFAULT_SEARCH_COUNTRY } from '../catalogue/search.ts';
import type { DrugRow } from '../catalogue/drug-rows.ts';
import { CLASS_SORTS, classSummary, listClasses } from './class-rollup.ts';
import type { ClassSort, ClassSummary } from './class-rollup.ts';
import { classDrugs, classMembers, relatedClasses, SAMPLE_SUBSTANCES } from './classes.ts';
import type { Page } from './paging.ts';
import { CLASS_SYSTEMS } from '../../vocabulary/systems.ts';

/** Largest page of class and ATC drug lists; documented in docs/api-decisions.md. */
export const MAX_CLASS_LIMIT = 200;

interface DrugPage extends Page<DrugRow> {
  system: string;
  code: string;
  label: string;
  country: string | null;
  source: string;
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw validationError(`Invalid request: ${name} must be one of ${allowed.join(', ')}.`, [{ location: 'query', field: name, message: 'is not an allowed value' }]);
  }
  return value as T;
}

/** ATC codes are upper case; other axes' ids are opaque and kept as given. */
function classCode(system: string, code: string): string {
  return system === 'atc' ? code.trim().toUpperCase() : code;
}

function paging(args: { limit: number; offset: number }): { limit: number; offset: number } {
  return { limit: boundedInt('limit', args.limit, 1, MAX_CLASS_LIMIT), offset: boundedInt('offset', args.offset, 0, Number.MAX_SAFE_INTEGER) };
}

async function atcDrugs(ctx: RequestContext, args: { code: string; country?: string | null; limit: number; offset: number }): Promise<DrugPage | null> {
  const { limit, offset } = paging(args);
  const node = await ctx.loaders.atcNode.load(args.code.trim().toUpperCase());
  if (!node) return null;
  const country = args.country ? args.country.toUpperCase() : DEFAULT_SEARCH_COUNTRY;
  const page = await classDrugs(ctx.db, 'atc', node.code, country === 'ALL' ? null : country, limit, offset);
  return { ...page, system: 'atc', code: node.code, label: node.name, country, source: node.source };
}

async function drugsOfClass(ctx: RequestContext, args: { system: string; code: string; country?: string | null; limit: number; offset: number }): Promise<DrugPage | null> {
  const system = oneOf('system', args.system, CLASS_SYSTEMS);
  const { limit, offset } = paging(args);
  const summary = await classSummary(ctx.db, system, classCode(system, args.code));
  if (!summary) return null;
  const country = args.country && args.country.toUpperCase() !== 'ALL' ? args.country.toUpperCase() : null;
  const page = await classDrugs(ctx.db, system, summary.code, country, limit, offset);
  return { ...page, system, code: summary.code, label: summary.label, country, source: summary.source };
}

async function classDetail(ctx: RequestContext, args: { system: string; code: string }) {
  const system = oneOf('system', args.system, CLASS_SYSTEMS);
  const summary = await classSummary(ctx.db, system, classCode(system, args.code));
  if (!summary) return null;
  const isAtc = system === 'atc';
  const [ancestors, children, members] = await Promise.all([
    isAtc ? ctx.loaders.atcNode.loadMany(atcAncestorCodes(summary.code)) : Promise.resolve([]),
    isAtc ? ctx.loaders.atcChildren.load(summary.code) : Promise.resolve([]),
    classMembers(ctx.db, system, summary.code),
  ]);
  const related = members.length ? await relatedClasses(ctx.db, system, members.map((m) => m.unii)) : [];
  const asNode = (n: AtcNode | Error | null) => (n && !(n instanceof Error) ? { system: 'atc', code: n.code, label: n.name, level: n.level } : null);
  return {
    ...summary,
    ancestors: ancestors.map(asNode).filter((n) => n !== null),
    children: children.map(asNode).filter((n) => n !== null),
    memberCount: members.length,
    sampleSubstances: members.slice(0, SAMPLE_SUBSTANCES),
    related,
  };
}

async function classList(ctx: RequestContext, args: {
  system?: string | null; q?: string | null; level?: number | null; minDrugs?: number | null; market?: string | null; sort: string; limit: number; offset: number;
}) {
  const system = args.system ? oneOf('system', args.system, CLASS_SYSTEMS) : null;
  const sort: ClassSort = oneOf('sort', args.sort, CLASS_SORTS);
  const { limit, offset } = paging(args);
  const level = args.level === null || args.level === undefined ? null : boundedInt('level', args.level, 1, 5);
  const minDrugs = args.minDrugs === null || args.minDrugs === undefined ? null : boundedInt('min_drugs', args.minDrugs, 0, Number.MAX_SAFE_INTEGER);
  const filter = { system, code: null, q: args.q ?? null, level, minDrugs, market: args.market ? args.market.toUpperCase() : null };
  return listClasses(ctx.db, filter, sort, limit, offset);
}

export const classificationResolvers = {
  Query: {
    atc: (_: unknown, args: { code: string }, ctx: RequestContext) => ctx.loaders.atcNode.load(args.code.trim().toUpperCase()),
    atcDrugs: (_: unknown, args: { code: string; country?: string | null; limit: number; offset: number }, ctx: RequestContext) => atcDrugs(ctx, args),
    classes: (_: unknown, args: Parameters<typeof classList>[1], ctx: RequestContext) => classList(ctx, args),
    therapeuticClass: (_: unknown, args: { system: string; code: string }, ctx: RequestContext) => classDetail(ctx, args),
    classDrugs: (_: unknown, args: Parameters<typeof drugsOfClass>[1], ctx: RequestContext) => drugsOfClass(ctx, args),
  },
  AtcNode: {
    parent: (node: AtcNode, _: unknown, ctx: RequestContext) => (node.parentCode ? ctx.loaders.atcNode.load(node.parentCode) : null),
    ancestors: async (node: AtcNode, _: unknown, ctx: RequestContext) => {
      const nodes = await ctx.loaders.atcNode.loadMany(atcAncestorCodes(node.code));
      return nodes.filter((n): n is AtcNode => n !== null && !(n instanceof Error));
    },
    children: (node: AtcNode, _: unknown, ctx: RequestContext) => (atcLevel(node.code) === 5 ? [] : ctx.loaders.atcChildren.load(node.code)),
    supply: (node: AtcNode, _: unknown, ctx: RequestContext) => ctx.loaders.classSupply.load(`atc|${node.code}`),
    meta: (node: AtcNode, _: unknown, ctx: RequestContext) => metaFor(ctx.loaders.source, [node.source]),
  },
  ClassDrugPage: {
    meta: (page: DrugPage, _: unknown, ctx: RequestContext) => metaFor(ctx.loaders.source, [page.source, ...page.results.flatMap((d) => d.sources)]),
  },
  ClassPage: {
    meta: (page: Page<ClassSummary>, _: unknown, ctx: RequestContext) => metaFor(ctx.loaders.source, page.results.map((c) => c.source)),
  },
  ClassDetail: {
    supply: (detail: ClassSummary, _: unknown, ctx: RequestContext) => ctx.loaders.classSupply.load(`${detail.system}|${detail.code}`),
    meta: (detail: ClassSummary, _: unknown, ctx: RequestContext) => metaFor(ctx.loaders.source, [detail.source]),
  },
};
