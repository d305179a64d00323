/**
 * `/v1/pgx`: pharmacogenomic gene–drug pairs from the CPIC API (a PostgREST service),
 * with CPIC levels, PharmGKB clinical annotation levels and the guideline, for one drug.
 */
import type { RequestContext } from '../context.ts';
import { fetchSource } from './upstream.ts';

interface CpicDrug {
  drugid: string;
  name: string;
  pharmgkbid: string | null;
  rxnormid: string | null;
  drugbankid: string | null;
  atcid: string[] | null;
}
interface CpicPair {
  genesymbol: string;
  cpiclevel: string | null;
  cpiclevelstatus?: string | null;
  pgkbcalevel: string | null;
  pgxtesting: string | null;
  guidelinename: string | null;
  guidelineurl: string | null;
  citations: string[] | null;
  usedforrecommendation: boolean | null;
}

/** CPIC levels rank A (strongest) to D; pairs are listed strongest first. */
const LEVEL_ORDER = ['A', 'A/B', 'B', 'B/C', 'C', 'C/D', 'D'];

/** CPIC gene–drug pairs of a drug, strongest level first; null when CPIC has no such drug. */
export async function pgx(ctx: RequestContext, name: string): Promise<Record<string, unknown> | null> {
  const term = name.trim().toLowerCase();
  // PostgREST filter syntax: `name=eq.warfarin`; names in CPIC are lower case.
  const drugs = await fetchSource<CpicDrug[]>(ctx, 'cpic', { path: '/drug', query: { name: `eq.${term}` } });
  const drug = Array.isArray(drugs.body) ? drugs.body[0] : undefined;
  if (!drug) return null;
  const pairs = await fetchSource<CpicPair[]>(ctx, 'cpic', { path: '/pair_view', query: { drugid: `eq.${drug.drugid}`, removed: 'eq.false' } });
  const rank = (l: string | null) => (l === null ? LEVEL_ORDER.length : LEVEL_ORDER.indexOf(l) === -1 ? LEVEL_ORDER.length : LEVEL_ORDER.indexOf(l));
  return {
    drug: { name: drug.name, cpic_drug_id: drug.drugid, pharmgkb_id: drug.pharmgkbid, rxcui: drug.rxnormid, drugbank_id: drug.drugbankid, atc_codes: drug.atcid ?? [] },
    pairs: (Array.isArray(pairs.body) ? pairs.body : [])
      .map((p) => ({
        gene: p.genesymbol,
        cpic_level: p.cpiclevel,
        cpic_level_status: p.cpiclevelstatus ?? null,
        pharmgkb_level: p.pgkbcalevel,
        pgx_testing: p.pgxtesting,
        used_for_recommendation: p.usedforrecommendation ?? false,
        guideline: p.guidelinename ? { name: p.guidelinename, url: p.guidelineurl } : null,
        pmids: p.citations ?? [],
      }))
      .sort((a, b) => rank(a.cpic_level) - rank(b.cpic_level) || a.gene.localeCompare(b.gene)),
    source: 'cpic',
  };
}
