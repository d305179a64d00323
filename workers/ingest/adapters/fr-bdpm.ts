/**
 * French Base de données publique des médicaments (BDPM, ANSM/HAS/UNCAM), the files of its
 * "Téléchargement" page, laid out in "Contenu et format des fichiers téléchargeables":
 * `CIS_bdpm.txt` and `CIS_CIP_bdpm.txt` (required; fr-bdpm-cis), `CIS_COMPO_bdpm.txt`
 * (fr-bdpm-compo), `CIS_HAS_SMR_bdpm.txt`, `CIS_HAS_ASMR_bdpm.txt`, `HAS_LiensPageCT_bdpm.txt`
 * (fr-bdpm-has), `CIS_GENER_bdpm.txt`, `CIS_CPD_bdpm.txt`, `CIS_MITM.txt`,
 * `CIS_InfoImportantes*.txt` and `CIS_CIP_Dispo_Spec.txt` (fr-bdpm-annex).
 *
 * Every file is tab separated without header or quotes, in its own encoding (Windows-1252,
 * or UTF-8 for the newer ones) and line ends. A file's role comes from the column count and
 * shape of its first rows (fr-bdpm-roles.ts), whatever its name (data.gouv.fr mirrors use
 * `.csv`; InfoImportantes carries a timestamp); a member of a release no role fits is named
 * as unused. Every row is kept, malformed, or excluded (a duplicate, a row about a CIS the
 * release's CIS_bdpm.txt does not hold).
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import { assignLoadedRoles, requireRole } from './file-roles.ts';
import type { RoleAssignment } from './file-roles.ts';
import { BDPM_RULES } from './fr-bdpm-roles.ts';
import type { Role } from './fr-bdpm-roles.ts';
import { applyAvailability, applyConditions, applyGenericGroups, applyMitm, applySafetyInfo } from './fr-bdpm-annex.ts';
import { readPacks, readProducts } from './fr-bdpm-cis.ts';
import { applyComposition } from './fr-bdpm-compo.ts';
import { applyAssessments, linkAssessments, readCtLinks } from './fr-bdpm-has.ts';

export { bdpmUnits } from './fr-bdpm-cis.ts';

export const BDPM_CIS_FILE = 'CIS_bdpm.txt';
export const BDPM_CIP_FILE = 'CIS_CIP_bdpm.txt';
export const BDPM_COMPO_FILE = 'CIS_COMPO_bdpm.txt';
export const BDPM_MITM_FILE = 'CIS_MITM.txt';
/** Optional files, as the download page names them. */
export const BDPM_OPTIONAL_FILES = [
  BDPM_COMPO_FILE, 'CIS_GENER_bdpm.txt', 'CIS_CPD_bdpm.txt', 'CIS_HAS_SMR_bdpm.txt', 'CIS_HAS_ASMR_bdpm.txt',
  'HAS_LiensPageCT_bdpm.txt', BDPM_MITM_FILE, 'CIS_InfoImportantes.txt', 'CIS_CIP_Dispo_Spec.txt',
];

export const FR_BDPM_SOURCE: SourceInfo = {
  id: 'fr-bdpm',
  name: 'Base de données publique des médicaments (ANSM, HAS, UNCAM)',
  country: 'FR',
  // The BDPM export is regenerated at least weekly.
  refresh_interval_hours: 24 * 8,
  url: 'https://base-donnees-publique.medicaments.gouv.fr/telechargement',
};

/** Each file under the role its first rows show; CIS_bdpm and CIS_CIP_bdpm are required. */
function sortFiles(files: InputFile[]): RoleAssignment<Role> {
  // An empty member is a download that failed, not a member to pass over.
  const empty = files.find((f) => f.content.toString('latin1').trim() === '');
  if (empty) throw new FileRejectedError(empty.name, 'empty: no BDPM row');
  const assignment = assignLoadedRoles(files, BDPM_RULES);
  requireRole(assignment, 'CIS_bdpm', BDPM_CIS_FILE);
  requireRole(assignment, 'CIS_CIP_bdpm', BDPM_CIP_FILE);
  return assignment;
}

/** Reads the annotating files (all but CIS, CIP and COMPO) into the products. */
function annotate(byRole: Map<Role, InputFile[]>, products: Map<string, ProductEntry>, tallies: Map<Role, RowTally>): void {
  const run = (role: Role, read: (file: InputFile, tally: RowTally) => void): void => {
    const file = byRole.get(role)?.[0];
    if (file) read(file, tallies.get(role)!);
  };
  run('CIS_GENER_bdpm', (f, t) => applyGenericGroups(f, products, t));
  run('CIS_CPD_bdpm', (f, t) => applyConditions(f, products, t));
  run('CIS_HAS_SMR_bdpm', (f, t) => applyAssessments('smr', f, products, t));
  run('CIS_HAS_ASMR_bdpm', (f, t) => applyAssessments('asmr', f, products, t));
  run('HAS_LiensPageCT_bdpm', (f, t) => linkAssessments(products.values(), readCtLinks(f, t)));
  run('CIS_MITM', (f, t) => applyMitm(f, products, t));
  run('CIS_InfoImportantes', (f, t) => applySafetyInfo(f, products, t));
  run('CIS_CIP_Dispo_Spec', (f, t) => applyAvailability(f, products, t));
}

/** Parses the BDPM export files; malformed rows are reported with their line and skipped. */
export function parseFrBdpm(files: InputFile[]): AdapterResult {
  const { byRole, unused } = sortFiles(files);
  const problems: RowProblem[] = [];
  const tallies = new Map<Role, RowTally>([...byRole].map(([role, [file]]) => [role, new RowTally(file!.name, problems)]));
  const products = readProducts(byRole.get('CIS_bdpm')![0]!, tallies.get('CIS_bdpm')!);
  readPacks(byRole.get('CIS_CIP_bdpm')![0]!, products, tallies.get('CIS_CIP_bdpm')!);
  const compo = byRole.get('CIS_COMPO_bdpm')?.[0];
  const substances: SubstanceEntry[] = compo ? applyComposition(compo, products, tallies.get('CIS_COMPO_bdpm')!) : [];
  annotate(byRole, products, tallies);
  const reports: FileReport[] = files.map((file) => {
    const role = [...byRole].find(([, f]) => f[0] === file)?.[0];
    return role ? tallies.get(role)!.report(role) : unused.find((u) => u.file === file.name)!;
  });
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: FR_BDPM_SOURCE, substances, products: [...products.values()] },
    problems,
    files: reports,
  };
}
