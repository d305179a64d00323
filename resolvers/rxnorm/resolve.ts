/**
 * Free-text name → rxcui: RxNav's normalised exact match first (`/REST/rxcui.json`,
 * search=2), then its approximate term search. Names are normalised before they reach
 * the upstream, so "  LIPITOR " and "lipitor" share one cache row.
 */
import type { RequestContext } from '../context.ts';
import { fetchSource } from '../enrichment/upstream.ts';
import { rxProperties } from './concept.ts';

/** A name resolved to an rxcui, as the GraphQL type RxNormResolution. */
export interface RxResolution {
  query: string;
  normalizedName: string;
  rxcui: string;
  name: string | null;
  matchType: 'exact' | 'approximate';
  score: number | null;
  candidates: Array<{ rxcui: string; name: string | null; score: number; rank: number }>;
}

interface RxIdGroup {
  idGroup?: { rxnormId?: string[] };
}
interface RxApproximate {
  approximateGroup?: { candidate?: Array<{ rxcui: string; name?: string; score: string; rank: string; source?: string }> };
}

/** Lower case, trimmed, inner whitespace collapsed. */
export function normalizeName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

async function exact(ctx: RequestContext, name: string): Promise<string | null> {
  const answer = await fetchSource<RxIdGroup>(ctx, 'rxnav', { path: '/REST/rxcui.json', query: { name, search: 2 } });
  return answer.body?.idGroup?.rxnormId?.[0] ?? null;
}

async function approximate(ctx: RequestContext, name: string): Promise<RxResolution['candidates']> {
  const answer = await fetchSource<RxApproximate>(ctx, 'rxnav', { path: '/REST/approximateTerm.json', query: { term: name, maxEntries: 10 } });
  const best = new Map<string, RxResolution['candidates'][number]>();
  // RxNav lists one candidate per source atom; RxNorm's own atoms carry the names we
  // want, and one concept appears once, at its best rank.
  for (const c of answer.body?.approximateGroup?.candidate ?? []) {
    if (c.source && c.source !== 'RXNORM') continue;
    const entry = { rxcui: c.rxcui, name: c.name ?? null, score: Number(c.score), rank: Number(c.rank) };
    const seen = best.get(c.rxcui);
    if (!seen || entry.rank < seen.rank) best.set(c.rxcui, entry);
  }
  return [...best.values()].sort((a, b) => a.rank - b.rank || b.score - a.score);
}

/** The resolution of `query`, or null when neither search finds a concept. */
export async function resolveRxcui(ctx: RequestContext, query: string): Promise<RxResolution | null> {
  const normalizedName = normalizeName(query);
  const rxcui = await exact(ctx, normalizedName);
  if (rxcui) {
    const props = await rxProperties(ctx, rxcui);
    return { query, normalizedName, rxcui, name: props?.name ?? null, matchType: 'exact', score: null, candidates: [] };
  }
  const candidates = await approximate(ctx, normalizedName);
  const top = candidates[0];
  if (!top) return null;
  return { query, normalizedName, rxcui: top.rxcui, name: top.name, matchType: 'approximate', score: top.score, candidates };
}
