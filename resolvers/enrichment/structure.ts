/**
 * `/v1/targets/structure`: a gene's reviewed UniProt entry for one organism, with its
 * experimental PDB structures and the AlphaFold model. AlphaFold is an optional part:
 * when it fails the answer keeps the UniProt data and names `alphafold` in `missing`.
 */
import { isApiError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { fetchSource } from './upstream.ts';

interface UniProtEntry {
  primaryAccession: string;
  uniProtkbId: string;
  organism?: { scientificName?: string; taxonId?: number };
  proteinDescription?: { recommendedName?: { fullName?: { value: string } } };
  genes?: Array<{ geneName?: { value: string }; synonyms?: Array<{ value: string }> }>;
  sequence?: { length?: number };
  uniProtKBCrossReferences?: Array<{ database: string; id: string; properties?: Array<{ key: string; value: string }> }>;
}
interface AlphaFoldModel {
  entryId: string;
  latestVersion?: number;
  modelCreatedDate?: string;
  cifUrl?: string;
  pdbUrl?: string;
  paeImageUrl?: string;
  globalMetricValue?: number;
  uniprotStart?: number;
  uniprotEnd?: number;
}

function pdbEntries(entry: UniProtEntry): Array<{ id: string; method: string | null; resolution_angstrom: number | null; chains: string | null }> {
  return (entry.uniProtKBCrossReferences ?? [])
    .filter((x) => x.database === 'PDB')
    .map((x) => {
      const prop = (k: string) => x.properties?.find((p) => p.key === k)?.value ?? null;
      const res = prop('Resolution');
      const value = res ? Number.parseFloat(res) : NaN;
      return { id: x.id, method: prop('Method'), resolution_angstrom: Number.isFinite(value) ? value : null, chains: prop('Chains') };
    })
    // Best resolution first; NMR and other entries without one go last.
    .sort((a, b) => (a.resolution_angstrom ?? Infinity) - (b.resolution_angstrom ?? Infinity) || a.id.localeCompare(b.id));
}

async function alphafold(ctx: RequestContext, accession: string, missing: string[]): Promise<Record<string, unknown> | null> {
  try {
    const res = await fetchSource<AlphaFoldModel[]>(ctx, 'alphafold', { path: `/api/prediction/${encodeURIComponent(accession)}` });
    const m = res.status === 404 || !Array.isArray(res.body) ? undefined : res.body[0];
    if (!m) return null;
    return { entry_id: m.entryId, version: m.latestVersion ?? null, created: m.modelCreatedDate ?? null, mean_plddt: m.globalMetricValue ?? null, residues: m.uniprotStart && m.uniprotEnd ? [m.uniprotStart, m.uniprotEnd] : null, cif_url: m.cifUrl ?? null, pdb_url: m.pdbUrl ?? null, pae_image_url: m.paeImageUrl ?? null };
  } catch (err) {
    if (isApiError(err) && err.code === 'upstream_error') {
      missing.push('alphafold');
      return null;
    }
    throw err;
  }
}

/** UniProt entry, PDB entries and AlphaFold model; null without a reviewed entry. */
export async function targetStructure(ctx: RequestContext, symbol: string, organismId: number): Promise<Record<string, unknown> | null> {
  const gene = symbol.trim().toUpperCase();
  const res = await fetchSource<{ results?: UniProtEntry[] }>(ctx, 'uniprot', {
    path: '/uniprotkb/search',
    query: { query: `(gene_exact:${gene}) AND (organism_id:${organismId}) AND (reviewed:true)`, fields: 'accession,id,gene_names,protein_name,organism_name,organism_id,length,xref_pdb', format: 'json', size: 1 },
  });
  const entry = res.status === 404 ? undefined : res.body?.results?.[0];
  if (!entry) return null;
  const missing: string[] = [];
  const model = await alphafold(ctx, entry.primaryAccession, missing);
  return {
    symbol: gene,
    organism_id: organismId,
    uniprot: {
      accession: entry.primaryAccession,
      entry_name: entry.uniProtkbId,
      protein_name: entry.proteinDescription?.recommendedName?.fullName?.value ?? null,
      gene_names: (entry.genes ?? []).flatMap((g) => [g.geneName?.value, ...(g.synonyms ?? []).map((s) => s.value)]).filter((v): v is string => Boolean(v)),
      organism: entry.organism?.scientificName ?? null,
      length: entry.sequence?.length ?? null,
      url: `https://www.uniprot.org/uniprotkb/${entry.primaryAccession}/entry`,
    },
    alphafold: model,
    pdb: pdbEntries(entry),
    missing,
    source: 'uniprot',
  };
}
