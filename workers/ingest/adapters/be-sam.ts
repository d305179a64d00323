/**
 * Belgian SAM v2 actual medicines (FAMHP authentic source), from either of two publications:
 * - the export (`AMP-<version>.xml` of the SAM export zip, root `ExportActualMedicines` in
 *   namespace urn:be:fgov:ehealth:samws:v2:export), optionally with the reimbursement export
 *   (`RMB-<version>.xml`). The AMP export lists every AMP, so what it leaves out is deleted.
 * - DICS web-service answers (be-sam-dics.ts): `FindAmpResponse` envelopes, completed by
 *   `FindCompanyResponse` (holder names), `FindVmpResponse` (VMP names) and
 *   `FindReimbursementResponse`. An answer holds what its query matched: a partial snapshot
 *   that updates those AMPs and deletes nothing else.
 * Roles come from content (root element, answer element), never from file names. One `Amp`
 * record per branded product with its packs (be-sam-build.ts). The real export runs to
 * hundreds of megabytes, so it is read from disk in blocks, twice: a first pass checks every
 * record (problems, counts, substances) before anything is written, the second yields the
 * products while the engine writes them. `parse` collects the same stream.
 */
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, ProductEntry, SourceInfo } from '../snapshot.ts';
import type { StreamedAdapterResult } from '../input.ts';
import { FileRejectedError, ProblemLog } from './common.ts';
import type { InputFile } from './common.ts';
import { SAM_EXPORT_NS, attr } from './be-sam-read.ts';
import { readSamReimbursements } from './be-sam-rmb.ts';
import type { SamReimbursement } from './be-sam-rmb.ts';
import { buildSamProduct } from './be-sam-build.ts';
import type { PartProblem, SamContext } from './be-sam-build.ts';
import { SAM_RULES, dicsRecords, faultOf, readDicsNames } from './be-sam-dics.ts';
import type { SamRole } from './be-sam-dics.ts';
import { assignRoles } from './file-roles.ts';
import { RowTally, unusedFile } from '../row-outcome.ts';
import { xmlFileRecords } from './xml-file-records.ts';
import type { XmlElement } from './xml-records.ts';

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

/** The `Amp` records of an AMP export (root checked) or of a DICS FindAmp answer. */
function records(source: AmpSource): AsyncGenerator<XmlElement> {
  const { file } = source;
  if (source.dics) return dicsRecords(file, 'FindAmpResponse');
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

/** A file holding `Amp` records: the export or a DICS answer. */
interface AmpSource {
  file: InputFile;
  dics: boolean;
}

function context(day: string, first: Omit<SamContext, 'day' | 'cnks'>): SamContext {
  return { day, cnks: new Set(), ...first };
}

/**
 * The files by role (be-sam-dics.ts): the AMP export or DICS FindAmp answers (not both), and
 * what completes them. A SOAP fault is refused with the service's message; members of no role
 * are named as unused, and so is a SOAP fault beside other answers (refused alone).
 */
async function roles(files: InputFile[]) {
  const assigned = await assignRoles(files, SAM_RULES);
  const of = (role: SamRole) => assigned.byRole.get(role) ?? [];
  // A fault answers a query that found nothing: named beside the other answers, not read.
  const faults = await Promise.all(of('DICS fault').map(async (f) => ({ file: f, why: await faultOf(f) })));
  const unused = [...assigned.unused, ...faults.map((f) => unusedFile(f.file.name, f.why))];
  const exportAmp = of('AMP')[0];
  const answers = of('DICS AMP');
  if (exportAmp && answers.length > 0) throw new FileRejectedError(answers[0]!.name, `give the SAM export (${exportAmp.name}) or DICS answers, not both`);
  if (!exportAmp && answers.length === 0) {
    if (faults[0]) throw new FileRejectedError(faults[0].file.name, faults[0].why);
    throw new FileRejectedError(files[0]?.name ?? BE_SAM_FILE, 'no SAM actual medicines among the files given: the AMP export (root ExportActualMedicines) or a DICS FindAmpResponse is required');
  }
  const amps: AmpSource[] = exportAmp ? [{ file: exportAmp, dics: false }] : answers.map((file) => ({ file, dics: true }));
  return { amps, rmb: of('RMB')[0], rmbAnswers: of('DICS reimbursement'), companies: of('DICS company'), vmps: of('DICS VMP'), unused };
}

/** What the other files say of the AMPs: reimbursements, company and VMP names, with a report per file. */
async function completions(found: Awaited<ReturnType<typeof roles>>, day: string, log: ProblemLog) {
  const reports = new Map<string, FileReport>();
  const reimbursements = new Map<string, SamReimbursement>();
  if (found.rmb) reports.set(found.rmb.name, await readSamReimbursements(found.rmb, day, log, reimbursements));
  for (const f of found.rmbAnswers) reports.set(f.name, await readSamReimbursements(f, day, log, reimbursements, true));
  const companies = new Map<string, string>();
  const vmps = new Map<string, string>();
  const named = [...await readDicsNames(found.companies, 'FindCompanyResponse', log.problems, companies), ...await readDicsNames(found.vmps, 'FindVmpResponse', log.problems, vmps)];
  for (const r of named) reports.set(r.file, r);
  return { reports, shared: { substances: new Map(), reimbursements, companies, vmps } };
}

/** Opens the export or the DICS answers for a streamed ingest; see the module comment. */
export async function openBeSam(files: InputFile[], options: BeSamOptions = {}): Promise<StreamedAdapterResult> {
  const day = (options.asOf ?? new Date()).toISOString().slice(0, 10);
  const log = new ProblemLog();
  const found = await roles(files);
  const { reports, shared } = await completions(found, day, log);
  const first = context(day, shared);
  const skip = new Set<string>();
  const keys = new Set<string>();
  for (const source of found.amps) {
    const tally = new RowTally(source.file.name, log.problems);
    for await (const amp of records(source)) {
      const parts: PartProblem[] = [];
      // A repeated AMP is left out before it is built, so its CNKs do not count as taken.
      const code = normaliseIdentifier('be_amp_code', attr(amp, 'code'));
      if (code && keys.has(code)) { tally.exclude('duplicate'); skip.add(`${source.file.name}:${amp.line}`); continue; }
      const product = buildSamProduct(amp, first, parts);
      for (const p of parts) log.add(source.file.name, p.line, p.message);
      if (typeof product === 'string') { tally.malformedRow(amp.line, product); skip.add(`${source.file.name}:${amp.line}`); continue; }
      keys.add(product.key);
      tally.keep();
    }
    reports.set(source.file.name, tally.report(source.dics ? 'DICS AMP' : 'AMP'));
  }
  // An export without a usable AMP would withdraw every stored Belgian product on ingest.
  if (keys.size === 0) throw new FileRejectedError(found.amps[0]!.file.name, 'no usable Amp records');
  async function* products(): AsyncGenerator<ProductEntry> {
    const again = context(day, { ...shared, substances: first.substances });
    for (const source of found.amps) {
      for await (const amp of records(source)) {
        if (skip.has(`${source.file.name}:${amp.line}`)) continue;
        const product = buildSamProduct(amp, again, []);
        if (typeof product === 'string') throw new FileRejectedError(source.file.name, `line ${amp.line} changed while the file was ingested`);
        yield product;
      }
    }
  }
  const partial = found.amps.some((a) => a.dics);
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: BE_SAM_SOURCE, substances: [...first.substances.values()], products: products(), ...(partial ? { partial: true } : {}) },
    problems: log.problems,
    files: files.map((f) => reports.get(f.name) ?? found.unused.find((u) => u.file === f.name)!),
  };
}

/** Reads the whole export into one snapshot (the same products, in the same order, as `openBeSam` streams). */
export async function parseBeSam(files: InputFile[], options: BeSamOptions = {}): Promise<AdapterResult> {
  const opened = await openBeSam(files, options);
  const products: ProductEntry[] = [];
  for await (const product of opened.snapshot.products as AsyncIterable<ProductEntry>) products.push(product);
  return { ...opened, snapshot: { ...opened.snapshot, products } };
}
