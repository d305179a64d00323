/**
 * NHS Dictionary of Medicines and Devices (dm+d), weekly release XML (NHSBSA via TRUD):
 * `f_lookup2_*.xml`, `f_ingredient2_*.xml`, `f_vtm2_*.xml`, `f_vmp2_*.xml`, `f_vmpp2_*.xml`,
 * `f_amp2_*.xml`, `f_ampp2_*.xml`, optionally `f_gtin2_*.xml` and the supplementary
 * `f_bnf1_*.xml` (ATC per VMP). Each file's role comes from its root element, not its name.
 *
 * Mapping: a product per valid AMP (key APID; ids dmd_apid, dmd_vmpid with the VMP's
 * previous id, dmd_vtmid), a pack per valid AMPP (key APPID; ids dmd_amppid, dmd_vmppid and
 * the dated GTINs). Prices are whole pence in the files and become GBP: the AMPP list price
 * (`list`) and the Drug Tariff price of its VMPP (`tariff`). Pack size from the VMPP quantity,
 * legal category → dispensing_category, AMP availability restriction → availability,
 * discontinued AMPPs → withdrawn. VTMs and VMPs without AMPs are not products.
 *
 * Large releases (≈150 000 AMPPs, tens of MB) are read record by record (gb-dmd-xml.ts), never
 * as a tree; `openGbDmd` (gb-dmd-open.ts) streams them from disk for `drugref ingest`.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, RowProblem, SourceInfo } from '../snapshot.ts';
import { EXCLUDED } from '../row-outcome.ts';
import { FileRejectedError, ProblemLog } from './common.ts';
import type { InputFile } from './common.ts';
import { buildDmdProducts } from './gb-dmd-build.ts';
import { emptyDmdData, readDmdFile } from './gb-dmd-read.ts';
import type { DmdData, DmdRole, RoleCount } from './gb-dmd-read.ts';

export const GB_DMD_SOURCE: SourceInfo = {
  id: 'gb-dmd',
  name: 'NHS Dictionary of Medicines and Devices (dm+d)',
  country: 'GB',
  // The NHSBSA publishes a full release every week.
  refresh_interval_hours: 24 * 8,
  licence: 'Open Government Licence v3.0 (NHSBSA dm+d, distributed through NHS TRUD)',
  url: 'https://www.nhsbsa.nhs.uk/pharmacies-gp-practices-and-appliance-contractors/dictionary-medicines-and-devices-dmd',
};

/** Release file name patterns of the roles every ingest needs, and of the optional ones. */
export const GB_DMD_FILES: Readonly<Record<DmdRole, string>> = {
  lookup: 'f_lookup2_*.xml', ingredient: 'f_ingredient2_*.xml', VMP: 'f_vmp2_*.xml', VMPP: 'f_vmpp2_*.xml',
  AMP: 'f_amp2_*.xml', AMPP: 'f_ampp2_*.xml', VTM: 'f_vtm2_*.xml', GTIN: 'f_gtin2_*.xml', BNF: 'f_bnf1_*.xml',
};
const REQUIRED: readonly DmdRole[] = ['lookup', 'ingredient', 'VMP', 'VMPP', 'AMP', 'AMPP'];

/** Refuses a release without one of the core files. */
export function requireCoreFiles(data: DmdData): void {
  const missing = REQUIRED.filter((role) => !data.counts.has(role));
  if (missing.length > 0) {
    throw new FileRejectedError(GB_DMD_FILES[missing[0]!], `the dm+d release needs the ${missing.join(', ')} file(s) (${missing.map((r) => GB_DMD_FILES[r]).join(', ')})`);
  }
}

/**
 * File reports from the per-file counts: of the records not kept, those reported as problems
 * are malformed; the rest are records drugref does not hold (`out_of_scope`: sections it does
 * not read such as licensed routes, invalid records, VMPs and VMPPs no AMP uses, lookup
 * entries nothing names).
 */
export function reportsOf(counts: RoleCount[], problems: readonly RowProblem[]): FileReport[] {
  return counts.map((c) => {
    const notKept = c.read - c.kept;
    const malformed = Math.min(notKept, problems.filter((p) => p.file === c.file).length);
    const rest = notKept - malformed;
    return { file: c.file, role: c.role, read: c.read, kept: c.kept, malformed, ...(rest > 0 ? { excluded: { [EXCLUDED.outOfScope]: rest } } : {}) };
  });
}

/** Parses a dm+d release; malformed records are reported and skipped, a wrong or missing file rejects it. */
export function parseGbDmd(files: InputFile[]): AdapterResult {
  const log = new ProblemLog();
  const data = emptyDmdData();
  const counts: RoleCount[] = files.map((file) => readDmdFile(file, data, log));
  requireCoreFiles(data);
  const { products, substances } = buildDmdProducts(data, log);
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: GB_DMD_SOURCE, substances, products },
    problems: log.problems,
    files: reportsOf(counts, log.problems),
  };
}
