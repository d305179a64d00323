/**
 * POST /v1/interactions/check: resolve 2 to 50 drug references to ATC codes, form the
 * unique sorted pairs of codes that come from different inputs, and report the rules that
 * apply. Non-commercial rows go to every plan, unmetered. Commercially licensed rows
 * (mechanism, management) need `interactions:write` and quota left: only then is ONE request
 * counted; otherwise they are withheld and counted in `locked`.
 *
 * Round trips are constant in the number of drugs: resolution (1), rules (1), interaction
 * sources (1), `_meta` sources (1), plus one quota update when licensed rows are delivered.
 */
import { validationError } from '../../platform/errors.ts';
import { consumeQuota } from '../accounts/quota.ts';
import type { RequestContext } from '../context.ts';
import { metaFor } from '../sources/status.ts';
import { resolveReferences } from './references.ts';
import type { DrugReference, ResolvedReference } from './references.ts';
import { fetchRules, matchPairs } from './rules.ts';
import type { PairMatch, RuleHit } from './rules.ts';

export const MIN_DRUGS = 2;
export const MAX_DRUGS = 50;
export const SEVERITY_ORDER = ['contraindicated', 'major', 'moderate', 'minor'];

export type LockReason = 'plan_does_not_include' | 'no_credit_left';

/** One reported interaction row: a rule applied to a pair of the caller's drugs. */
export interface InteractionRow {
  atcCodes: [string, string];
  /** Input indexes on each side of the pair. */
  inputs: [number[], number[]];
  rule: { key: string; a: string; b: string };
  severity: string;
  evidence: string;
  description: string;
  commercial: boolean;
  licence: string;
  attributions: string[];
  mechanism: string | null;
  management: string | null;
  source: string;
  crossReferences: RuleHit['crossReferences'];
  interactionType: string | null;
}

/** Code → the inputs it came from. */
export function codeInputs(resolved: readonly ResolvedReference[]): Map<string, Set<number>> {
  const map = new Map<string, Set<number>>();
  for (const r of resolved) for (const code of r.atcCodes) map.set(code, (map.get(code) ?? new Set()).add(r.index));
  return map;
}

/** Unique sorted pairs of codes that come from two different inputs. */
export function uniquePairs(inputs: Map<string, Set<number>>): Array<[string, string]> {
  const codes = [...inputs.keys()].sort();
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < codes.length; i++) {
    for (let j = i + 1; j < codes.length; j++) {
      const x = inputs.get(codes[i]!)!;
      const y = inputs.get(codes[j]!)!;
      // Two codes of one input alone (a combination product) are not checked against each other.
      if (x.size > 1 || y.size > 1 || [...x][0] !== [...y][0]) pairs.push([codes[i]!, codes[j]!]);
    }
  }
  return pairs;
}

function toRow(match: PairMatch, rule: RuleHit, inputs: Map<string, Set<number>>): InteractionRow {
  return {
    atcCodes: [match.a, match.b],
    inputs: [[...inputs.get(match.a)!].sort((p, q) => p - q), [...inputs.get(match.b)!].sort((p, q) => p - q)],
    rule: { key: rule.key, a: rule.ruleA, b: rule.ruleB },
    severity: rule.severity, evidence: rule.evidence, description: rule.description,
    commercial: rule.tier === 'licensed', licence: rule.licence, attributions: rule.attributions,
    mechanism: rule.mechanism, management: rule.management, source: rule.source,
    crossReferences: rule.crossReferences, interactionType: rule.interactionType,
  };
}

/** Worst first, then by codes, open row before its licensed companion. */
export function sortRows(rows: InteractionRow[]): InteractionRow[] {
  return rows.sort((p, q) => SEVERITY_ORDER.indexOf(p.severity) - SEVERITY_ORDER.indexOf(q.severity)
    || p.atcCodes.join().localeCompare(q.atcCodes.join()) || Number(p.commercial) - Number(q.commercial));
}

/** Whether licensed rows may be delivered; meters one request when they are. */
async function licensedAccess(ctx: RequestContext, lockedCount: number): Promise<LockReason | null> {
  const principal = ctx.principal;
  if (!principal || !principal.scopes.has('interactions:write')) return 'plan_does_not_include';
  if (lockedCount === 0) return null;
  const decision = await consumeQuota(ctx.db, principal.accountId, principal.tier, ctx.now(), principal.keyId);
  return decision.admitted ? null : 'no_credit_left';
}

/** Interaction rows of resolved inputs, licence split applied. */
export async function interactionsOf(ctx: RequestContext, resolved: readonly ResolvedReference[], options: { meter: boolean }) {
  const inputs = codeInputs(resolved);
  const pairs = uniquePairs(inputs);
  const mayRead = ctx.principal?.scopes.has('interactions:write') ?? false;
  const matches = matchPairs(pairs, await fetchRules(ctx.db, inputs.keys(), mayRead));
  const all = matches.flatMap((m) => m.rules.map((rule) => toRow(m, rule, inputs)));
  const licensedCount = all.filter((r) => r.commercial).length;
  const why = options.meter ? await licensedAccess(ctx, licensedCount) : (mayRead ? null : 'plan_does_not_include');
  const rows = sortRows(why ? all.filter((r) => !r.commercial) : all);
  const locked = { count: why ? licensedCount : 0, why: why && licensedCount ? why : null };
  return { pairs, rows, locked };
}

/** Interaction sources for `_meta` (one small query; the table holds one row per licence). */
export async function interactionMeta(ctx: RequestContext) {
  const { rows } = await ctx.db.query<{ source: string }>('SELECT DISTINCT source FROM interaction_licences');
  return metaFor(ctx.loaders.source, rows.map((r) => r.source));
}

/** The whole N-way check. */
export async function checkInteractions(ctx: RequestContext, drugs: readonly DrugReference[]) {
  if (!Array.isArray(drugs) || drugs.length < MIN_DRUGS || drugs.length > MAX_DRUGS) {
    throw validationError(`Invalid request: drugs must list ${MIN_DRUGS} to ${MAX_DRUGS} references.`, [
      { location: 'body', field: 'drugs', message: `must hold ${MIN_DRUGS} to ${MAX_DRUGS} items` },
    ]);
  }
  const resolved = await resolveReferences(ctx.db, drugs);
  const { pairs, rows, locked } = await interactionsOf(ctx, resolved, { meter: true });
  return {
    inputs: resolved,
    unresolved: resolved.filter((r) => !r.resolved).map((r) => r.index),
    pairsChecked: pairs.length,
    interactions: rows,
    locked,
    meta: await interactionMeta(ctx),
  };
}
