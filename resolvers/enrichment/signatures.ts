/**
 * `/v1/signatures`: disease signatures scored against the perturbation data set with
 * the connectivity score. GET resolves a curated signature by indication or ontology id;
 * POST scores the caller's own up/down gene sets. Both answer through the cache, POST
 * keyed by the sorted gene sets so the same sets in any order share one answer.
 */
import { ApiError, validationError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { connectivity } from './connectivity.ts';
import type { Profile } from './connectivity.ts';
import { contains, curatedAnswer, filterKey, readCurated } from './curated.ts';

interface SignatureRecord {
  id: string;
  indication: string;
  efo: string;
  provenance: Record<string, string>;
  up: string[];
  down: string[];
}
interface PerturbationRecord {
  id: string;
  compound: string;
  chembl_id: string | null;
  cell_line: string;
  dose: string;
  time: string;
  scores: Profile;
}

const DEFAULT_LIMIT = 10;
const METHOD = 'Connectivity Map connectivity score: weighted Kolmogorov–Smirnov enrichment of the up and down sets, (ES_up − ES_down) / 2 when of opposite sign, else 0. −1 reverses the signature exactly, +1 reproduces it.';

async function dataset(ctx: RequestContext) {
  return readCurated<PerturbationRecord>(ctx, 'signatures', 'perturbations.json', 'drugref-perturbations/1');
}

/** Scores every perturbation; reversers (score < 0) and mimickers (> 0), strongest first. */
async function score(ctx: RequestContext, up: string[], down: string[], limit: number) {
  const data = await dataset(ctx);
  const universe = new Set(data.records.flatMap((p) => Object.keys(p.scores)));
  const upSet = new Set(up.filter((g) => universe.has(g)));
  const downSet = new Set(down.filter((g) => universe.has(g)));
  const rows = data.records.map((p) => {
    const c = connectivity(p.scores, upSet, downSet);
    return { perturbation_id: p.id, compound: p.compound, chembl_id: p.chembl_id, cell_line: p.cell_line, dose: p.dose, time: p.time, score: c.score, es_up: c.esUp, es_down: c.esDown };
  });
  const reversers = rows.filter((r) => r.score < 0).sort((a, b) => a.score - b.score || a.perturbation_id.localeCompare(b.perturbation_id)).slice(0, limit);
  const mimickers = rows.filter((r) => r.score > 0).sort((a, b) => b.score - a.score || a.perturbation_id.localeCompare(b.perturbation_id)).slice(0, limit);
  return {
    matched: { up: [...upSet].sort(), down: [...downSet].sort(), unmatched: [...up, ...down].filter((g) => !universe.has(g)).sort() },
    dataset: { name: data.name ?? 'perturbations', perturbations: data.records.length, genes: universe.size, demo: data.demo, notice: data.notice },
    reversers,
    mimickers,
    method: METHOD,
  };
}

async function curatedSignatures(ctx: RequestContext) {
  return readCurated<SignatureRecord>(ctx, 'signatures', 'signatures.json', 'drugref-curated-signatures/1');
}

/** The curated signature for an indication label (substring) or ontology id. */
export async function findSignature(ctx: RequestContext, query: { indication?: string | null; efo?: string | null }): Promise<SignatureRecord | null> {
  const file = await curatedSignatures(ctx);
  const efo = query.efo?.trim().replace(':', '_').toUpperCase();
  return file.records.find((s) => (efo ? s.efo.toUpperCase() === efo : contains(s.indication, query.indication))) ?? null;
}

/** A curated signature scored against the data set; 404 listing the indications when none matches. */
export async function curatedSignature(ctx: RequestContext, args: { indication?: string | null; efo?: string | null; limit?: number | null }): Promise<Record<string, unknown>> {
  if (Boolean(args.indication) === Boolean(args.efo)) {
    throw validationError('Give exactly one of indication or efo.', [{ location: 'query', field: 'indication', message: 'provide indication or efo' }]);
  }
  const limit = args.limit ?? DEFAULT_LIMIT;
  const answer = await curatedAnswer(ctx, 'signatures', filterKey('signature', { indication: args.indication, efo: args.efo, limit }), async () => {
    const sig = await findSignature(ctx, args);
    if (!sig) return { found: false as const, indications: (await curatedSignatures(ctx)).records.map((s) => ({ indication: s.indication, efo: s.efo })) };
    const scored = await score(ctx, sig.up, sig.down, limit);
    return { found: true as const, body: { signature: { id: sig.id, indication: sig.indication, efo: sig.efo, provenance: sig.provenance, up_count: sig.up.length, down_count: sig.down.length, up: sig.up, down: sig.down }, ...scored } };
  });
  if (!answer.found) throw new ApiError('not_found', 'No curated signature matches; see `indications` for those available.', { indications: answer.indications });
  return answer.body;
}

/** Upper-cased, trimmed, de-duplicated gene symbols. */
function genes(list: string[] | null | undefined): string[] {
  return [...new Set((list ?? []).map((g) => g.trim().toUpperCase()).filter(Boolean))];
}

/** The caller's gene sets scored against the data set; 404 when no gene is in it. */
export async function scoreSignature(ctx: RequestContext, args: { up?: string[] | null; down?: string[] | null; limit?: number | null }): Promise<Record<string, unknown>> {
  const up = genes(args.up);
  const down = genes(args.down);
  if (!up.length && !down.length) throw validationError('Give at least one gene in up or down.', [{ location: 'body', field: 'up', message: 'both gene sets are empty' }]);
  const both = up.filter((g) => down.includes(g));
  if (both.length) throw validationError('A gene cannot be both up- and down-regulated.', both.map((g) => ({ location: 'body', field: 'down', message: `${g} is also in up` })));
  const limit = args.limit ?? DEFAULT_LIMIT;
  const key = `score?up=${[...up].sort().join(',')}&down=${[...down].sort().join(',')}&limit=${limit}`;
  const result = await curatedAnswer(ctx, 'signatures', key, () => score(ctx, up, down, limit));
  if (!result.matched.up.length && !result.matched.down.length) {
    throw new ApiError('not_found', 'None of the genes is in the perturbation data set.', { unmatched: result.matched.unmatched });
  }
  return { signature: { provenance: { source: 'caller' }, up_count: up.length, down_count: down.length }, ...result };
}
