/**
 * `/v1/molecule-enrichment`: one ChEMBL molecule, by ChEMBL id or by name (preferred
 * name first, then any synonym), mapped to a small stable shape.
 */
import { validationError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { fetchSource } from './upstream.ts';

/** The slice of ChEMBL's molecule resource this service reads. */
export interface ChemblMolecule {
  molecule_chembl_id: string;
  pref_name: string | null;
  molecule_type: string | null;
  max_phase: string | number | null;
  first_approval: number | null;
  oral?: boolean;
  black_box_warning?: number;
  withdrawn_flag?: boolean;
  indication_class?: string | null;
  atc_classifications?: string[];
  molecule_synonyms?: Array<{ molecule_synonym: string; syn_type: string }>;
  molecule_structures?: { canonical_smiles?: string; standard_inchi_key?: string } | null;
  molecule_properties?: Record<string, string | number | null> | null;
}

interface ChemblPage {
  molecules?: ChemblMolecule[];
}

const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

/** ChEMBL's molecule in this service's shape (documented in docs/enrichment.md). */
export function mapMolecule(m: ChemblMolecule): Record<string, unknown> {
  const p = m.molecule_properties ?? {};
  const synonyms = [...new Set((m.molecule_synonyms ?? []).map((s) => s.molecule_synonym))].sort();
  return {
    chembl_id: m.molecule_chembl_id,
    pref_name: m.pref_name,
    molecule_type: m.molecule_type,
    // ChEMBL sends max_phase as a decimal string ("4.0") since release 32.
    max_phase: num(m.max_phase),
    first_approval: m.first_approval ?? null,
    oral: m.oral ?? null,
    black_box_warning: m.black_box_warning === undefined ? null : m.black_box_warning === 1,
    withdrawn: m.withdrawn_flag ?? null,
    indication_class: m.indication_class ?? null,
    atc_codes: m.atc_classifications ?? [],
    synonyms,
    trade_names: [...new Set((m.molecule_synonyms ?? []).filter((s) => s.syn_type === 'TRADE_NAME').map((s) => s.molecule_synonym))].sort(),
    structure: { smiles: m.molecule_structures?.canonical_smiles ?? null, inchi_key: m.molecule_structures?.standard_inchi_key ?? null },
    properties: {
      molecular_formula: p.full_molformula ?? null,
      molecular_weight: num(p.full_mwt),
      alogp: num(p.alogp),
      hba: num(p.hba),
      hbd: num(p.hbd),
      psa: num(p.psa),
      rotatable_bonds: num(p.rtb),
      ro5_violations: num(p.num_ro5_violations),
      qed: num(p.qed_weighted),
    },
    source: 'chembl',
  };
}

/** One molecule by ChEMBL id, or null when ChEMBL has none. */
export async function chemblById(ctx: RequestContext, chemblId: string): Promise<ChemblMolecule | null> {
  const res = await fetchSource<ChemblMolecule>(ctx, 'chembl', { path: `/molecule/${encodeURIComponent(chemblId.toUpperCase())}.json` });
  return res.status === 404 ? null : res.body;
}

/** The molecule whose preferred name, else a synonym, equals `name` (case-insensitive). */
export async function chemblByName(ctx: RequestContext, name: string): Promise<ChemblMolecule | null> {
  const term = name.trim().toLowerCase();
  for (const field of ['pref_name__iexact', 'molecule_synonyms__molecule_synonym__iexact']) {
    const res = await fetchSource<ChemblPage>(ctx, 'chembl', { path: '/molecule.json', query: { [field]: term, limit: 1 } });
    const hit = res.status === 404 ? undefined : res.body?.molecules?.[0];
    if (hit) return hit;
  }
  return null;
}

/** The molecule by id or name (exactly one, else 422); null when ChEMBL has none. */
export async function moleculeEnrichment(ctx: RequestContext, args: { chemblId?: string | null; name?: string | null }): Promise<Record<string, unknown> | null> {
  if (Boolean(args.chemblId) === Boolean(args.name)) {
    throw validationError('Give exactly one of chembl_id or name.', [{ location: 'query', field: args.chemblId ? 'name' : 'chembl_id', message: 'provide one of chembl_id or name, not both' }]);
  }
  const molecule = args.chemblId ? await chemblById(ctx, args.chemblId) : await chemblByName(ctx, args.name as string);
  return molecule ? mapMolecule(molecule) : null;
}
