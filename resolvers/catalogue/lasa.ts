/**
 * The `lasa` field of a drug (search rows, on request): other marketed names in the same
 * country that are easily confused with its name (docs/catalogue.md "LASA"). Read for a whole
 * page in ONE query by a per-request dataloader: the row's name key, its computed neighbours
 * (`lasa_pairs`) and curated pairs (`lasa_names`), each neighbour resolved to a representative
 * marketed product of the country. The same query says which of the page's countries have
 * stale pairs, and the resolver schedules their refresh in the background.
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../../platform/db.ts';
import type { RequestContext } from '../context.ts';
import type { DrugRow } from './drug-rows.ts';
import { LASA_PHONETIC_MIN, LASA_SPELLING_MIN, scheduleLasaRefresh } from './lasa-refresh.ts';

/** Most entries per row, the closest first. */
export const MAX_LASA_PER_ROW = 10;

export type LasaReason = 'curated' | 'spelling' | 'phonetic';

export interface LasaCuration {
  source: string;
  reason: string;
}

export interface LasaEntry {
  name: string;
  drugId: string;
  reasons: LasaReason[];
  /** 1 for a curated pair, else the highest similarity that reached its threshold. */
  score: number;
  spelling: number | null;
  phonetic: number | null;
  curated: LasaCuration[];
}

export interface LasaAnswer {
  entries: LasaEntry[];
  /** Countries of the batch whose computed pairs are stale (to refresh in the background). */
  stale: string[];
}

interface Row {
  id: string;
  drug_id: string;
  name: string;
  spelling: number | null;
  phonetic: number | null;
  curated: LasaCuration[];
}

// Neighbours: computed pairs of the row's country, and curated pairs naming its key on
// either side. A computed neighbour whose every marketed product has the row's active
// substances is dropped (two brands of one molecule are not a safety issue); a curated one
// stays (the lists name same-substance pairs on purpose, e.g. oxycodone / OxyContin).
const LASA_SQL = `
WITH r AS (
  SELECT p.id, p.country, lasa_name_key(p.product_name) AS key, p.substance_signature AS sig FROM products p WHERE p.id = ANY($1::uuid[])
),
cand AS (
  SELECT r.id, l.other AS key, l.spelling, l.phonetic, NULL::text AS source, NULL::text AS reason
    FROM r JOIN lasa_pairs l ON l.country = r.country AND l.key = r.key
  UNION ALL
  SELECT r.id, c.key_b, NULL, NULL, c.source, c.reason FROM r JOIN lasa_names c ON c.key_a = r.key
  UNION ALL
  SELECT r.id, c.key_a, NULL, NULL, c.source, c.reason FROM r JOIN lasa_names c ON c.key_b = r.key
),
agg AS (
  SELECT id, key, max(spelling) AS spelling, max(phonetic) AS phonetic,
         coalesce(jsonb_agg(jsonb_build_object('source', source, 'reason', reason) ORDER BY source) FILTER (WHERE source IS NOT NULL), '[]') AS curated
    FROM cand GROUP BY id, key
),
hits AS (
  SELECT a.id, d.id AS drug_id, d.name, a.spelling, a.phonetic, a.curated
    FROM agg a JOIN r ON r.id = a.id
   CROSS JOIN LATERAL (
     SELECT q.id, (regexp_match(q.product_name, '[[:alpha:]][[:alpha:]-]*'))[1] AS name FROM products q
      WHERE q.country = r.country AND lasa_name_key(q.product_name) = a.key AND q.searchable AND q.marketing_status = 'active'
        AND (jsonb_array_length(a.curated) > 0 OR q.substance_signature IS NULL OR r.sig IS NULL OR q.substance_signature <> r.sig)
      ORDER BY lower(q.product_name), q.id LIMIT 1) d
)
SELECT (SELECT coalesce(jsonb_agg(to_jsonb(h)), '[]') FROM hits h) AS hits,
       (SELECT coalesce(array_agg(c.country ORDER BY c.country), '{}') FROM (SELECT DISTINCT country FROM r) c
         WHERE NOT EXISTS (SELECT 1 FROM lasa_state s WHERE s.country = c.country AND s.sources_stamp = lasa_sources_stamp(c.country))) AS stale`;

/** A similarity that reached its threshold, rounded for the answer; null below it (bounded distances are not exact there). */
function reached(value: number | null, min: number): number | null {
  return value !== null && value >= min - 1e-9 ? Math.round(value * 1000) / 1000 : null;
}

function toEntry(row: Row): LasaEntry {
  const spelling = reached(row.spelling, LASA_SPELLING_MIN);
  const phonetic = reached(row.phonetic, LASA_PHONETIC_MIN);
  const reasons: LasaReason[] = [];
  if (row.curated.length) reasons.push('curated');
  if (spelling !== null) reasons.push('spelling');
  if (phonetic !== null) reasons.push('phonetic');
  const score = row.curated.length ? 1 : Math.max(spelling ?? 0, phonetic ?? 0);
  return { name: row.name, drugId: row.drug_id, reasons, score, spelling, phonetic, curated: row.curated };
}

const byScore = (a: LasaEntry, b: LasaEntry) => b.score - a.score || a.name.localeCompare(b.name) || a.drugId.localeCompare(b.drugId);

/** Per-request loader: drug id → its LASA entries and the stale countries of the batch. */
export function createLasaLoader(db: Queryable): DataLoader<string, LasaAnswer> {
  return new DataLoader<string, LasaAnswer>(async (ids) => {
    const { rows } = await db.query<{ hits: Row[]; stale: string[] }>(LASA_SQL, [ids]);
    const { hits, stale } = rows[0]!;
    const byId = new Map<string, LasaEntry[]>();
    for (const hit of hits) {
      const list = byId.get(hit.id) ?? [];
      list.push(toEntry(hit));
      byId.set(hit.id, list);
    }
    return ids.map((id) => ({ entries: (byId.get(id) ?? []).sort(byScore).slice(0, MAX_LASA_PER_ROW), stale }));
  });
}

/** Resolvers of the LASA field; merged into the internal schema by resolvers/index.ts. */
export const lasaResolvers = {
  Drug: {
    lasa: async (drug: DrugRow, _: unknown, ctx: RequestContext): Promise<LasaEntry[]> => {
      const answer = await ctx.loaders.lasa.load(drug.id);
      scheduleLasaRefresh(ctx.db, answer.stale, ctx.log);
      return answer.entries;
    },
  },
};
