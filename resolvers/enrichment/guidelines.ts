/**
 * `/v1/guidelines` and `/v1/hta`: filters over the curated guideline index and HTA
 * decisions. Nothing matching is not an error: the answer has no results and a
 * `coverage` note saying what the curated set does cover.
 */
import { validationError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { contains, curatedAnswer, filterKey, readCurated } from './curated.ts';

/** One record of data/curated/guidelines.json. */
export interface GuidelineRecord {
  id: string;
  source: string;
  title: string;
  indication: string;
  efo: string | null;
  atc: string[];
  drugs: string[];
  population: string;
  recommendation: string;
  category: string;
  published: string;
  url: string;
}

/** One record of data/curated/hta.json. */
export interface HtaRecord {
  id: string;
  source: string;
  country: string;
  drug: string;
  indication: string;
  efo: string | null;
  decision: string;
  decision_date: string;
  url: string;
  economics: Record<string, number | string | null>;
}

/** Filters of `/v1/guidelines` (at least one). */
export interface GuidelineFilter {
  indication?: string | null;
  atc?: string | null;
  source?: string | null;
}

/** Filters of `/v1/hta` (at least one). */
export interface HtaFilter {
  drug?: string | null;
  indication?: string | null;
  country?: string | null;
  source?: string | null;
}

function requireOne(filter: Record<string, unknown>, names: string[]): void {
  if (!names.some((n) => filter[n] !== null && filter[n] !== undefined && filter[n] !== '')) {
    throw validationError(`Give at least one of ${names.join(', ')}.`, names.map((field) => ({ location: 'query', field, message: 'one of these is required' })));
  }
}

/** An ATC query matches a guideline code when either is a prefix of the other (L01 ↔ L01EB04). */
function atcMatches(codes: string[], atc: string | null | undefined): boolean {
  if (!atc) return true;
  const q = atc.trim().toUpperCase();
  return codes.some((c) => c.startsWith(q) || q.startsWith(c));
}

/** Matches a label or, for ontology ids, the record's id. */
function indicationMatches(record: { indication: string; efo: string | null }, indication: string | null | undefined): boolean {
  if (!indication) return true;
  const id = indication.trim().replace(':', '_').toUpperCase();
  return contains(record.indication, indication) || (record.efo !== null && record.efo.toUpperCase() === id);
}

function coverageNote(kind: string, count: number, covered: string[], notice: string): string {
  const scope = `The curated ${kind} set covers: ${covered.join('; ')}.`;
  return count ? `${scope} ${notice}` : `No curated ${kind} matches this query. ${scope} An empty answer does not mean none exists. ${notice}`;
}

/** Matching guideline recommendations, newest first, with a coverage note. */
export async function guidelines(ctx: RequestContext, filter: GuidelineFilter): Promise<Record<string, unknown>> {
  requireOne(filter as Record<string, unknown>, ['indication', 'atc', 'source']);
  return curatedAnswer(ctx, 'guidelines', filterKey('guidelines', { ...filter }), async () => {
    const file = await readCurated<GuidelineRecord>(ctx, 'guidelines', 'guidelines.json', 'drugref-curated-guidelines/1');
    const results = file.records
      .filter((r) => indicationMatches(r, filter.indication) && atcMatches(r.atc, filter.atc) && (!filter.source || r.source === filter.source))
      .sort((a, b) => b.published.localeCompare(a.published) || a.id.localeCompare(b.id));
    const covered = [...new Set(file.records.map((r) => r.indication))].sort();
    return { results, count: results.length, coverage: coverageNote('guideline', results.length, covered, file.notice), demo: file.demo, source: 'curated' };
  });
}

/** Matching HTA decisions, newest first, with a coverage note. */
export async function hta(ctx: RequestContext, filter: HtaFilter): Promise<Record<string, unknown>> {
  requireOne(filter as Record<string, unknown>, ['drug', 'indication', 'country', 'source']);
  return curatedAnswer(ctx, 'hta', filterKey('hta', { ...filter }), async () => {
    const file = await readCurated<HtaRecord>(ctx, 'hta', 'hta.json', 'drugref-curated-hta/1');
    const results = file.records
      .filter((r) => contains(r.drug, filter.drug) && indicationMatches(r, filter.indication) && (!filter.country || r.country === filter.country.toUpperCase()) && (!filter.source || r.source === filter.source))
      .sort((a, b) => b.decision_date.localeCompare(a.decision_date) || a.id.localeCompare(b.id));
    const covered = [...new Set(file.records.map((r) => `${r.drug} (${r.indication})`))].sort();
    return { results, count: results.length, coverage: coverageNote('HTA', results.length, covered, file.notice), demo: file.demo, source: 'curated' };
  });
}
