/**
 * Interaction rules for a set of level-5 ATC codes, and their matching to code pairs.
 * A rule keyed (A, B) applies to the pair (x, y) when x falls under A and y under B (prefix
 * match, so a level-3 or level-4 code is a class rule). Rules are fetched for every ATC
 * prefix of the codes with `= ANY($1)` on both columns — one indexed statement however
 * many drugs are checked — and matched to pairs in memory.
 */
import type { Queryable } from '../../platform/db.ts';

export type Tier = 'open' | 'licensed';

export interface RuleHit {
  tier: Tier;
  key: string;
  source: string;
  ruleA: string;
  ruleB: string;
  severity: string;
  evidence: string;
  description: string;
  licence: string;
  attributions: string[];
  mechanism: string | null;
  management: string | null;
  /** The data set's own ids of the two drugs (DDInter ids), each with the ATC code it was matched to. */
  crossReferences: Array<{ system: string; code: string; atc: string; name: string | null }>;
  /** The data set's classification of the interaction, where it has one. */
  interactionType: string | null;
}

/** ATC code lengths of levels 1 to 5. */
const LEVEL_LENGTHS = [1, 3, 4, 5, 7];

/** Every ATC prefix (levels 1..5) of the codes: the keys a rule may be stored under. */
export function atcPrefixes(codes: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const code of codes) for (const n of LEVEL_LENGTHS) if (code.length >= n) out.add(code.slice(0, n));
  return [...out].sort();
}

// The licensed texts are selected only when the caller may see them ($2), so withheld rows
// never leave the database; their keys are still read to count them in `locked`.
const RULES = `
  SELECT 'open' AS tier, natural_key AS key, source, a_code, b_code, severity, evidence, description, licence, attributions,
         NULL::text AS mechanism, NULL::text AS management, record -> 'cross_references' AS refs, record ->> 'interaction_type' AS interaction_type
    FROM interaction_rules WHERE a_code = ANY($1) AND b_code = ANY($1)
  UNION ALL
  SELECT 'licensed', natural_key, source, a_code, b_code, severity, evidence,
         CASE WHEN $2 THEN description END, licence, CASE WHEN $2 THEN attributions ELSE '[]'::jsonb END,
         CASE WHEN $2 THEN mechanism END, CASE WHEN $2 THEN management END,
         CASE WHEN $2 THEN record -> 'cross_references' END, CASE WHEN $2 THEN record ->> 'interaction_type' END
    FROM interaction_rules_licensed WHERE a_code = ANY($1) AND b_code = ANY($1)`;

interface RuleRow {
  tier: Tier; key: string; source: string; a_code: string; b_code: string; severity: string; evidence: string;
  description: string | null; licence: string; attributions: string[]; mechanism: string | null; management: string | null;
  refs: Array<{ system: string; code: string; atc: string; name?: string }> | null; interaction_type: string | null;
}

/** Rules that could apply to any pair of `codes`; licensed texts only when `withTexts`. */
export async function fetchRules(db: Queryable, codes: Iterable<string>, withTexts: boolean): Promise<RuleHit[]> {
  const prefixes = atcPrefixes(codes);
  if (prefixes.length === 0) return [];
  const { rows } = await db.query<RuleRow>(RULES, [prefixes, withTexts]);
  return rows.map((r) => ({
    tier: r.tier, key: r.key, source: r.source, ruleA: r.a_code, ruleB: r.b_code, severity: r.severity, evidence: r.evidence,
    description: r.description ?? '', licence: r.licence, attributions: r.attributions, mechanism: r.mechanism, management: r.management,
    crossReferences: (r.refs ?? []).map((x) => ({ system: x.system, code: x.code, atc: x.atc, name: x.name ?? null })), interactionType: r.interaction_type,
  }));
}

/** A unique sorted pair of level-5 codes and the rules that apply to it. */
export interface PairMatch {
  a: string;
  b: string;
  rules: RuleHit[];
}

function covers(rule: RuleHit, x: string, y: string): boolean {
  return (x.startsWith(rule.ruleA) && y.startsWith(rule.ruleB)) || (x.startsWith(rule.ruleB) && y.startsWith(rule.ruleA));
}

/**
 * For each pair, the most specific applicable rule of each tier (longest codes win), so a
 * substance-level rule overrides a class rule for the same pair and tier.
 */
export function matchPairs(pairs: ReadonlyArray<[string, string]>, rules: readonly RuleHit[]): PairMatch[] {
  const out: PairMatch[] = [];
  for (const [a, b] of pairs) {
    const best = new Map<Tier, RuleHit>();
    for (const rule of rules) {
      if (!covers(rule, a, b)) continue;
      const current = best.get(rule.tier);
      if (!current || rule.ruleA.length + rule.ruleB.length > current.ruleA.length + current.ruleB.length) best.set(rule.tier, rule);
    }
    if (best.size) out.push({ a, b, rules: [...best.values()] });
  }
  return out;
}
