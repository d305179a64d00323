/**
 * French Base de données publique des médicaments (BDPM, ANSM/HAS/UNCAM), the files of its
 * "Téléchargement" page, laid out in "Contenu et format des fichiers téléchargeables":
 * `CIS_bdpm.txt` and `CIS_CIP_bdpm.txt` (required; fr-bdpm-cis), `CIS_COMPO_bdpm.txt`
 * (fr-bdpm-compo), `CIS_HAS_SMR_bdpm.txt`, `CIS_HAS_ASMR_bdpm.txt`, `HAS_LiensPageCT_bdpm.txt`
 * (fr-bdpm-has), `CIS_GENER_bdpm.txt`, `CIS_CPD_bdpm.txt`, `CIS_MITM.txt`,
 * `CIS_InfoImportantes*.txt` and `CIS_CIP_Dispo_Spec.txt` (fr-bdpm-annex).
 *
 * Every file is tab separated without header or quotes, in its own encoding (Windows-1252,
 * or UTF-8 for the newer ones) and line ends. A file's role comes from its name (data.gouv.fr
 * mirrors use `.csv`; InfoImportantes carries a timestamp) and is confirmed by the column
 * count and shape of its first row; a file of another name or shape is refused, never skipped.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { FileRejectedError, ProblemLog } from './common.ts';
import type { InputFile } from './common.ts';
import { applyAvailability, applyConditions, applyGenericGroups, applyMitm, applySafetyInfo } from './fr-bdpm-annex.ts';
import { readPacks, readProducts } from './fr-bdpm-cis.ts';
import { applyComposition } from './fr-bdpm-compo.ts';
import { applyAssessments, linkAssessments, readCtLinks } from './fr-bdpm-has.ts';
import { Tally } from './fr-bdpm-rows.ts';

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

type Role =
  | 'CIS_bdpm' | 'CIS_CIP_bdpm' | 'CIS_COMPO_bdpm' | 'CIS_GENER_bdpm' | 'CIS_CPD_bdpm' | 'CIS_HAS_SMR_bdpm'
  | 'CIS_HAS_ASMR_bdpm' | 'HAS_LiensPageCT_bdpm' | 'CIS_MITM' | 'CIS_InfoImportantes' | 'CIS_CIP_Dispo_Spec';

/** File name patterns by role, in processing order (products first, then what annotates them). */
const ROLES: ReadonlyArray<[Role, RegExp]> = [
  ['CIS_bdpm', /^CIS_bdpm\.(?:txt|csv)$/i],
  ['CIS_CIP_bdpm', /^CIS_CIP_bdpm\.(?:txt|csv)$/i],
  ['CIS_COMPO_bdpm', /^CIS_COMPO_bdpm\.(?:txt|csv)$/i],
  ['CIS_GENER_bdpm', /^CIS_GENER_bdpm\.(?:txt|csv)$/i],
  ['CIS_CPD_bdpm', /^CIS_CPD_bdpm\.(?:txt|csv)$/i],
  ['CIS_HAS_SMR_bdpm', /^CIS_HAS_SMR_bdpm\.(?:txt|csv)$/i],
  ['CIS_HAS_ASMR_bdpm', /^CIS_HAS_ASMR_bdpm\.(?:txt|csv)$/i],
  ['HAS_LiensPageCT_bdpm', /^(?:CIS_)?HAS_LiensPageCT_bdpm\.(?:txt|csv)$/i],
  ['CIS_MITM', /^CIS_MITM\.(?:txt|csv)$/i],
  ['CIS_InfoImportantes', /^CIS_InfoImportantes(?:_\d{8,14})?(?:_bdpm)?\.(?:txt|csv)$/i],
  ['CIS_CIP_Dispo_Spec', /^CIS_CIP_Dispo_Spec\.(?:txt|csv)$/i],
];

function baseName(name: string): string {
  return name.split(/[\\/]/).pop()!;
}

/** Each file under its role; an unknown name or a second file of one role is refused. */
function assignRoles(files: InputFile[]): Map<Role, InputFile> {
  const byRole = new Map<Role, InputFile>();
  for (const file of files) {
    const role = ROLES.find(([, pattern]) => pattern.test(baseName(file.name)))?.[0];
    if (!role) {
      throw new FileRejectedError(file.name, `not a BDPM export file this adapter reads (expected ${BDPM_CIS_FILE}, ${BDPM_CIP_FILE}, ${BDPM_OPTIONAL_FILES.join(', ')})`);
    }
    const earlier = byRole.get(role);
    if (earlier) throw new FileRejectedError(file.name, `a second ${role} file (${earlier.name} is already one)`);
    byRole.set(role, file);
  }
  if (!byRole.has('CIS_bdpm') || !byRole.has('CIS_CIP_bdpm')) {
    throw new FileRejectedError(byRole.has('CIS_bdpm') ? BDPM_CIP_FILE : BDPM_CIS_FILE,
      'file missing: the BDPM adapter needs CIS_bdpm.txt and CIS_CIP_bdpm.txt');
  }
  return byRole;
}

/** Reads the annotating files (all but CIS, CIP and COMPO) into the products. */
function annotate(byRole: Map<Role, InputFile>, products: Map<string, ProductEntry>, log: ProblemLog, tallies: Map<Role, Tally>): void {
  const run = (role: Role, read: (file: InputFile, tally: Tally) => void): void => {
    const file = byRole.get(role);
    if (file) read(file, tallies.get(role)!);
  };
  run('CIS_GENER_bdpm', (f, t) => applyGenericGroups(f, products, log, t));
  run('CIS_CPD_bdpm', (f, t) => applyConditions(f, products, log, t));
  run('CIS_HAS_SMR_bdpm', (f, t) => applyAssessments('smr', f, products, log, t));
  run('CIS_HAS_ASMR_bdpm', (f, t) => applyAssessments('asmr', f, products, log, t));
  run('HAS_LiensPageCT_bdpm', (f, t) => linkAssessments(products.values(), readCtLinks(f, log, t)));
  run('CIS_MITM', (f, t) => applyMitm(f, products, log, t));
  run('CIS_InfoImportantes', (f, t) => applySafetyInfo(f, products, log, t));
  run('CIS_CIP_Dispo_Spec', (f, t) => applyAvailability(f, products, log, t));
}

/** Parses the BDPM export files; malformed rows are reported with their line and skipped. */
export function parseFrBdpm(files: InputFile[]): AdapterResult {
  const byRole = assignRoles(files);
  const tallies = new Map<Role, Tally>([...byRole.keys()].map((role) => [role, new Tally()]));
  const log = new ProblemLog();
  const products = readProducts(byRole.get('CIS_bdpm')!, log, tallies.get('CIS_bdpm')!);
  readPacks(byRole.get('CIS_CIP_bdpm')!, products, log, tallies.get('CIS_CIP_bdpm')!);
  const compo = byRole.get('CIS_COMPO_bdpm');
  const substances: SubstanceEntry[] = compo ? applyComposition(compo, products, log, tallies.get('CIS_COMPO_bdpm')!) : [];
  annotate(byRole, products, log, tallies);
  const reports: FileReport[] = files.map((file) => {
    const role = [...byRole].find(([, f]) => f === file)![0];
    return tallies.get(role)!.report(file.name, role);
  });
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: FR_BDPM_SOURCE, substances, products: [...products.values()] },
    problems: log.problems,
    files: reports,
  };
}
