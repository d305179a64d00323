/**
 * Danish medicine price list (Lægemiddelstyrelsen, medicinpriser.dk "takst"): the fixed-width
 * files `lms01.txt` (drugs) and `lms02.txt` (packages), required, and `lms03.txt` (prices),
 * `lms09.txt` (firms) and `lms30.txt` (substances), optional. Layouts and decoding in
 * dk-lms-layout.ts, row mapping in dk-lms-rows.ts.
 *
 * A file's role comes from its name (`lms01.txt`, `LMS01`, `lms01.txt` inside a folder). A
 * package of a drug that lms01 does not list, or a price of a package lms02 does not list, is
 * reported and skipped; a repeated Drug ID or varenummer keeps its first line.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { FileRejectedError, ProblemLog, provisionalNameKey } from './common.ts';
import type { InputFile } from './common.ts';
import { LMS01, LMS02, LMS03, LMS09, LMS30, readLms } from './dk-lms-layout.ts';
import type { LmsRecord, RecordLayout } from './dk-lms-layout.ts';
import { ingredientsOf, packAttributes, packOf, priceDateOf, pricesOf, productOf } from './dk-lms-rows.ts';

export const DK_LMS_FILES = ['lms01.txt', 'lms02.txt'];
export const DK_LMS_OPTIONAL_FILES = ['lms03.txt', 'lms09.txt', 'lms30.txt'];

export const DK_LMS_SOURCE: SourceInfo = {
  id: 'dk-lms',
  name: 'Lægemiddelstyrelsen medicinpriser (takst)',
  country: 'DK',
  // The takst changes every 14 days; a missed issue shows as stale after three weeks.
  refresh_interval_hours: 24 * 21,
  // The takst is published for every pharmacy system to load; no licence text ships with it.
  licence: 'Public price list of the Danish Medicines Agency (medicinpriser.dk); attribute the source',
  url: 'https://www.medicinpriser.dk/',
};

const LAYOUTS: readonly RecordLayout[] = [LMS01, LMS02, LMS03, LMS09, LMS30];

/** Each file under its layout; an unknown name, a second file of one role or a missing required one is refused. */
function assignRoles(files: InputFile[]): Map<RecordLayout, InputFile> {
  const byLayout = new Map<RecordLayout, InputFile>();
  for (const file of files) {
    const base = file.name.split(/[\\/]/).pop()!.toLowerCase();
    const layout = LAYOUTS.find((l) => base === l.id || base === `${l.id}.txt`);
    if (!layout) throw new FileRejectedError(file.name, `not a takst file this adapter reads (${[...DK_LMS_FILES, ...DK_LMS_OPTIONAL_FILES].join(', ')})`);
    if (byLayout.has(layout)) throw new FileRejectedError(file.name, `a second ${layout.id} file`);
    byLayout.set(layout, file);
  }
  for (const required of [LMS01, LMS02]) {
    if (!byLayout.has(required)) throw new FileRejectedError(`${required.id}.txt`, 'file missing: the takst adapter needs lms01.txt and lms02.txt');
  }
  return byLayout;
}

/** Reads every file once, in layout order, with its report. */
function readAll(byLayout: Map<RecordLayout, InputFile>, log: ProblemLog): { records: Map<RecordLayout, LmsRecord[]>; reports: Map<InputFile, FileReport> } {
  const records = new Map<RecordLayout, LmsRecord[]>();
  const reports = new Map<InputFile, FileReport>();
  for (const layout of LAYOUTS) {
    const file = byLayout.get(layout);
    if (!file) continue;
    const read = readLms(file.name, file.content, layout, log);
    records.set(layout, read.records);
    reports.set(file, { file: file.name, role: layout.role, read: read.tally.read, kept: read.tally.kept, skipped: read.tally.read - read.tally.kept });
  }
  return { records, reports };
}

/** Records keyed by `field`; a repeated key keeps the first and reports the line, counting it skipped. */
function firstBy(file: InputFile | undefined, records: readonly LmsRecord[], field: string, log: ProblemLog, report: FileReport | undefined): Map<string, LmsRecord> {
  const out = new Map<string, LmsRecord>();
  for (const r of records) {
    if (!out.has(r.get(field))) { out.set(r.get(field), r); continue; }
    log.add(file?.name ?? '', r.line, `${field} ${r.get(field)} repeated; the first line is kept`);
    skip(report);
  }
  return out;
}

/** Substance names per Drug ID from lms30, in file order, without repeats. */
function substancesByDrug(records: readonly LmsRecord[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of records) {
    const name = r.get('substans');
    if (name === '') continue;
    const list = out.get(r.get('drugId')) ?? [];
    if (!list.includes(name)) list.push(name);
    out.set(r.get('drugId'), list);
  }
  return out;
}

/** A skipped line of a file whose report counted it kept. */
function skip(report: FileReport | undefined): void {
  if (report) { report.kept -= 1; report.skipped = (report.skipped ?? 0) + 1; }
}

/**
 * Attaches each lms02 package (with its lms03 prices) to its drug, reports packages of unknown
 * drugs and prices of unknown packages, and gives each product its packages' tilskud codes.
 */
function attachPackages(
  byLayout: Map<RecordLayout, InputFile>, packages: Map<string, LmsRecord>, prices: Map<string, LmsRecord>,
  products: Map<string, ProductEntry>, log: ProblemLog, report: (layout: RecordLayout) => FileReport | undefined,
): void {
  const packsOf = new Map<string, LmsRecord[]>();
  for (const [varenummer, r] of packages) {
    const product = products.get(r.get('drugId'));
    if (!product) {
      log.add(byLayout.get(LMS02)!.name, r.line, `package ${varenummer} names Drug ID ${r.get('drugId')}, which lms01 does not list`);
      skip(report(LMS02));
      continue;
    }
    const pack = packOf(r);
    const price = prices.get(varenummer);
    const amounts = price ? pricesOf(price, priceDateOf(r)) : [];
    if (amounts.length > 0) pack.prices = amounts;
    product.packs.push(pack);
    packsOf.set(product.key, [...(packsOf.get(product.key) ?? []), r]);
  }
  for (const [varenummer, r] of prices) {
    if (packages.has(varenummer)) continue;
    log.add(byLayout.get(LMS03)!.name, r.line, `price of package ${varenummer}, which lms02 does not list`);
    skip(report(LMS03));
  }
  for (const [key, list] of packsOf) Object.assign(products.get(key)!.attributes!, packAttributes(list));
}

/** Parses the takst files; malformed lines are reported with file and line and skipped. */
export function parseDkLms(files: InputFile[]): AdapterResult {
  const byLayout = assignRoles(files);
  const log = new ProblemLog();
  const { records, reports } = readAll(byLayout, log);
  const report = (layout: RecordLayout): FileReport | undefined => reports.get(byLayout.get(layout)!);
  const drugs = firstBy(byLayout.get(LMS01), records.get(LMS01)!, 'drugId', log, report(LMS01));
  const packages = firstBy(byLayout.get(LMS02), records.get(LMS02)!, 'varenummer', log, report(LMS02));
  if (drugs.size === 0 || packages.size === 0) {
    throw new FileRejectedError(drugs.size === 0 ? byLayout.get(LMS01)!.name : byLayout.get(LMS02)!.name, 'no record: an empty takst would delete the source on ingest');
  }
  const prices = firstBy(byLayout.get(LMS03), records.get(LMS03) ?? [], 'varenummer', log, report(LMS03));
  const firms = new Map((records.get(LMS09) ?? []).map((r) => [r.get('firma'), r.get('langtNavn') || r.get('kortNavn')]));
  const substances = substancesByDrug(records.get(LMS30) ?? []);

  const products = new Map<string, ProductEntry>();
  for (const [id, drug] of drugs) {
    const product = productOf(drug);
    const holder = firms.get(drug.get('mtIndehaver'));
    if (holder) product.holder = holder;
    product.ingredients = ingredientsOf(substances.get(id) ?? [], drug);
    products.set(id, product);
  }
  attachPackages(byLayout, packages, prices, products, log, report);

  const substanceEntries: SubstanceEntry[] = [...new Set([...substances.values()].flat())]
    .map((name) => ({ unii: provisionalNameKey(name), name, names: { da: name }, provisional: true }));
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: DK_LMS_SOURCE, substances: substanceEntries, products: [...products.values()] },
    problems: log.problems,
    files: files.map((f) => reports.get(f)!),
  };
}
