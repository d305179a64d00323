/**
 * The Belgian SAM v2 actual-medicines export of the FAMHP (`AMP-<date>.xml` of the SAM export
 * zip, root `ExportActualMedicines` in namespace urn:be:fgov:ehealth:samws:v2:export): one
 * `Amp` record per branded product with its packs (be-sam-build.ts). The real file runs to
 * hundreds of megabytes, so it is read from disk in blocks, twice: a first pass checks every
 * record (problems, counts, substances) before anything is written, the second yields the
 * products while the engine writes them. `parse` collects the same stream.
 */
import { normaliseIdentifier } from '../../../resolvers/catalogue/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, ProductEntry, SourceInfo } from '../snapshot.ts';
import type { StreamedAdapterResult } from '../input.ts';
import { FileRejectedError, ProblemLog } from './common.ts';
import type { InputFile } from './common.ts';
import { SAM_EXPORT_NS } from './be-sam-read.ts';
import { readSamReimbursements, samRoot } from './be-sam-rmb.ts';
import type { SamReimbursement } from './be-sam-rmb.ts';
import { buildSamProduct } from './be-sam-build.ts';
import type { PartProblem, SamContext } from './be-sam-build.ts';
import { xmlFileRecords } from './xml-file-records.ts';

export const BE_SAM_FILE = 'AMP.xml';
export const BE_SAM_RMB_FILE = 'RMB.xml';

export const BE_SAM_SOURCE: SourceInfo = {
  id: 'be-sam',
  name: 'FAMHP SAM v2 (authentic source of medicines)',
  country: 'BE',
  // SAM publishes a full export daily; a week without a sync is stale.
  refresh_interval_hours: 24 * 7,
  licence: 'Public data of the FAMHP/eHealth SAM authentic source, free re-use',
  url: 'https://www.vas.ehealth.fgov.be/websamcivics/samcivics/',
};

/** Options of a read: the day whose `Data` slices count (today by default). */
export interface BeSamOptions {
  asOf?: Date;
}

function records(file: InputFile) {
  return xmlFileRecords(file, {
    onRoot(name, attributes) {
      const namespaced = Object.entries(attributes).some(([k, v]) => k.startsWith('xmlns') && v === SAM_EXPORT_NS);
      if (name !== 'ExportActualMedicines' || !namespaced) {
        throw new FileRejectedError(file.name, `not a SAM v2 actual-medicines export (root <${name}>, expected <ExportActualMedicines> of ${SAM_EXPORT_NS})`);
      }
    },
    isRecord: (name, ancestors) => ancestors.length === 1 && name === 'Amp',
  });
}

function context(day: string, substances: SamContext['substances'], reimbursements: SamContext['reimbursements']): SamContext {
  return { day, substances, cnks: new Set(), reimbursements };
}

/** The AMP export and, when given, the reimbursement export, told apart by their root element. */
async function roles(files: InputFile[]): Promise<{ amp: InputFile; rmb?: InputFile }> {
  let amp: InputFile | undefined;
  let rmb: InputFile | undefined;
  for (const file of files) {
    const root = await samRoot(file);
    if (root === 'ExportActualMedicines' && !amp) amp = file;
    else if (root === 'ExportReimbursements' && !rmb) rmb = file;
    else throw new FileRejectedError(file.name, `not a SAM v2 AMP or RMB export, or given twice (root <${root || 'none'}>)`);
  }
  if (!amp) throw new FileRejectedError(files[0]?.name ?? BE_SAM_FILE, 'the SAM AMP export (root ExportActualMedicines) is required');
  return rmb ? { amp, rmb } : { amp };
}

/** Opens the export for a streamed ingest; see the module comment. */
export async function openBeSam(files: InputFile[], options: BeSamOptions = {}): Promise<StreamedAdapterResult> {
  const day = (options.asOf ?? new Date()).toISOString().slice(0, 10);
  const log = new ProblemLog();
  const { amp: file, rmb } = await roles(files);
  const rmbRead = rmb ? await readSamReimbursements(rmb, day, log) : { byCnk: new Map<string, SamReimbursement>(), read: 0, skipped: 0 };
  const reimbursements = rmbRead.byCnk;
  const report: FileReport = { file: file.name, role: 'AMP', read: 0, kept: 0, skipped: 0 };
  const first = context(day, new Map(), reimbursements);
  const skip = new Set<number>();
  const keys = new Set<string>();
  for await (const amp of records(file)) {
    const parts: PartProblem[] = [];
    // A repeated AMP is refused before it is built, so its CNKs do not count as taken.
    const code = normaliseIdentifier('be_amp_code', amp.attributes.code ?? '');
    const product = code && keys.has(code) ? `AMP ${code} is listed twice (the first is kept)` : buildSamProduct(amp, first, parts);
    report.read += 1;
    for (const p of parts) log.add(file.name, p.line, p.message);
    if (typeof product === 'string') { log.add(file.name, amp.line, product); skip.add(amp.line); report.skipped = (report.skipped ?? 0) + 1; continue; }
    keys.add(product.key);
    report.kept += 1;
  }
  // An empty export would withdraw every stored Belgian product on ingest.
  if (report.kept === 0) throw new FileRejectedError(file.name, 'no usable Amp records');
  async function* products(): AsyncGenerator<ProductEntry> {
    const again = context(day, first.substances, reimbursements);
    for await (const amp of records(file)) {
      if (skip.has(amp.line)) continue;
      const product = buildSamProduct(amp, again, []);
      if (typeof product === 'string') throw new FileRejectedError(file.name, `line ${amp.line} changed while the file was ingested`);
      yield product;
    }
  }
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: BE_SAM_SOURCE, substances: [...first.substances.values()], products: products() },
    problems: log.problems,
    files: files.map((f): FileReport => (f === file ? report : { file: f.name, role: 'RMB', read: rmbRead.read, kept: rmbRead.read - rmbRead.skipped, skipped: rmbRead.skipped })),
  };
}

/** Reads the whole export into one snapshot (the same products, in the same order, as `openBeSam` streams). */
export async function parseBeSam(files: InputFile[], options: BeSamOptions = {}): Promise<AdapterResult> {
  const opened = await openBeSam(files, options);
  const products: ProductEntry[] = [];
  for await (const product of opened.snapshot.products as AsyncIterable<ProductEntry>) products.push(product);
  return { ...opened, snapshot: { ...opened.snapshot, products } };
}
