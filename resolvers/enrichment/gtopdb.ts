/**
 * `/v1/pharmacology-targets`: a ligand's targets and affinities from the IUPHAR/BPS
 * Guide to PHARMACOLOGY. Interactions name targets by id only, so target names come
 * from one call per distinct target; a failed name lookup leaves that name null rather
 * than failing the answer.
 */
import { isApiError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { fetchSource } from './upstream.ts';

interface GtoLigand {
  ligandId: number;
  name: string;
  inn?: string;
  type?: string;
  approved?: boolean;
  withdrawn?: boolean;
  whoEssential?: boolean;
  approvalSource?: string;
}
interface GtoInteraction {
  targetId: number;
  targetSpecies: string;
  primaryTarget: boolean;
  endogenous: boolean;
  type: string;
  action: string;
  affinity: string;
  affinityType: string;
  refs?: Array<{ pmid?: number }>;
}
interface GtoTarget {
  targetId: number;
  name: string;
  abbreviation?: string;
  type?: string;
}

/** At most this many distinct targets are named, to bound the fan-out per answer. */
const MAX_TARGETS = 25;

/** GtoPdb names carry HTML (`5-HT<sub>2A</sub>`, `&ndash;`); clients get plain text. */
export function plain(text: string): string {
  return text.replace(/<[^>]+>/g, '').replace(/&ndash;/g, '–').replace(/&alpha;/g, 'α').replace(/&beta;/g, 'β').replace(/&gamma;/g, 'γ').replace(/&amp;/g, '&').trim();
}

async function targetName(ctx: RequestContext, id: number): Promise<GtoTarget | null> {
  try {
    const res = await fetchSource<GtoTarget>(ctx, 'gtopdb', { path: `/targets/${id}` });
    return res.status === 404 ? null : res.body;
  } catch (err) {
    if (isApiError(err) && err.code === 'upstream_error') return null;
    throw err;
  }
}

/** The GtoPdb ligand called `name` (exact, case-insensitive, else the first hit). */
export async function gtoLigand(ctx: RequestContext, name: string): Promise<GtoLigand | null> {
  const res = await fetchSource<GtoLigand[]>(ctx, 'gtopdb', { path: '/ligands', query: { name: name.trim().toLowerCase() } });
  const list = res.status === 404 || !Array.isArray(res.body) ? [] : res.body;
  const wanted = name.trim().toLowerCase();
  return list.find((l) => l.name.toLowerCase() === wanted) ?? list[0] ?? null;
}

/** The ligand and its named targets; null when GtoPdb has no such ligand. */
export async function pharmacologyTargets(ctx: RequestContext, name: string): Promise<Record<string, unknown> | null> {
  const ligand = await gtoLigand(ctx, name);
  if (!ligand) return null;
  const res = await fetchSource<GtoInteraction[]>(ctx, 'gtopdb', { path: `/ligands/${ligand.ligandId}/interactions` });
  const interactions = res.status === 404 || !Array.isArray(res.body) ? [] : res.body;
  const ids = [...new Set(interactions.map((i) => i.targetId))].slice(0, MAX_TARGETS);
  const targets = new Map((await Promise.all(ids.map((id) => targetName(ctx, id)))).filter((t): t is GtoTarget => t !== null).map((t) => [t.targetId, t]));
  return {
    ligand: { id: ligand.ligandId, name: plain(ligand.name), inn: ligand.inn || null, type: ligand.type ?? null, approved: ligand.approved ?? null, withdrawn: ligand.withdrawn ?? null, who_essential: ligand.whoEssential ?? null, approval_source: ligand.approvalSource ?? null },
    interactions: interactions
      .map((i) => {
        const t = targets.get(i.targetId);
        return {
          target_id: i.targetId,
          target_name: t ? plain(t.name) : null,
          target_symbol: t?.abbreviation ? plain(t.abbreviation) : null,
          target_type: t?.type ?? null,
          species: i.targetSpecies,
          primary_target: i.primaryTarget,
          type: i.type,
          action: i.action,
          affinity: i.affinity ? plain(i.affinity) : null,
          affinity_type: i.affinityType || null,
          pmids: (i.refs ?? []).map((r) => r.pmid).filter((p): p is number => typeof p === 'number'),
        };
      })
      // Primary human targets first, then by affinity type and target.
      .sort((a, b) => Number(b.primary_target) - Number(a.primary_target) || Number(b.species === 'Human') - Number(a.species === 'Human') || a.target_id - b.target_id),
    source: 'gtopdb',
  };
}
