/**
 * The connectivity score of the Connectivity Map: how a perturbation's gene expression
 * profile relates to a disease signature (up- and down-regulated gene sets).
 *
 * For each set, a weighted Kolmogorov–Smirnov enrichment score (the GSEA running sum,
 * weight |score|^1) is taken over the perturbation's genes ranked by score, highest
 * first. The connectivity is (ES_up − ES_down) / 2 when the two have opposite signs and
 * 0 otherwise (Lamb et al. 2006; weighted form as in Subramanian et al. 2017): +1 means
 * the perturbation reproduces the signature (mimicker), −1 that it reverses it exactly.
 */

/** A perturbation profile: one score (e.g. moderated z) per gene. */
export type Profile = Record<string, number>;

/** Genes ranked by score, highest first; ties broken by name so the order is stable. */
export function rankGenes(profile: Profile): Array<[string, number]> {
  return Object.entries(profile).sort(([ga, a], [gb, b]) => b - a || (ga < gb ? -1 : ga > gb ? 1 : 0));
}

/**
 * Weighted KS enrichment score of `set` in `ranked`: the running sum's largest deviation
 * from zero, signed. Hits add |score|/Σ|score of hits|; misses subtract 1/(misses).
 * Returns 0 when the set has no gene in the profile or covers all of it.
 */
export function enrichmentScore(ranked: Array<[string, number]>, set: ReadonlySet<string>): number {
  const hits = ranked.filter(([g]) => set.has(g));
  const misses = ranked.length - hits.length;
  if (hits.length === 0 || misses === 0) return 0;
  let weight = hits.reduce((sum, [, s]) => sum + Math.abs(s), 0);
  // All hits scoring exactly 0 would divide by zero; fall back to equal weights.
  const equal = weight === 0;
  if (equal) weight = hits.length;
  let running = 0;
  let extreme = 0;
  for (const [gene, score] of ranked) {
    running += set.has(gene) ? (equal ? 1 : Math.abs(score)) / weight : -1 / misses;
    if (Math.abs(running) > Math.abs(extreme)) extreme = running;
  }
  return extreme;
}

/** A connectivity score with the two enrichment scores it comes from. */
export interface Connectivity {
  score: number;
  esUp: number;
  esDown: number;
}

/**
 * Signed connectivity of a profile with an up/down signature. With only one set
 * matched, its own enrichment score stands (down counted with its sign flipped).
 */
export function connectivity(profile: Profile, up: ReadonlySet<string>, down: ReadonlySet<string>): Connectivity {
  const ranked = rankGenes(profile);
  const esUp = enrichmentScore(ranked, up);
  const esDown = enrichmentScore(ranked, down);
  const hasUp = ranked.some(([g]) => up.has(g));
  const hasDown = ranked.some(([g]) => down.has(g));
  let score: number;
  if (hasUp && hasDown) score = Math.sign(esUp) !== Math.sign(esDown) ? (esUp - esDown) / 2 : 0;
  else score = hasUp ? esUp : -esDown;
  return { score: round(score), esUp: round(esUp), esDown: round(esDown) };
}

/** Four decimals: enough to rank, and free of float noise (−0.99999999 → −1). */
function round(x: number): number {
  const r = Math.round(x * 10_000) / 10_000;
  return r === 0 ? 0 : r;
}
