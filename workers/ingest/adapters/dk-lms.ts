/**
 * Danish medicine price list (Lægemiddelstyrelsen, medicinpriser.dk "takst"): a release folder
 * of fixed-width files. Read: `lms01` (drugs) and `lms02` (packages), required; `lms03`
 * (prices), `lms09` (firms), `lms12` (ATC texts), `lms30` (substances) and `system.txt` (the
 * takst date), optional. Every other member (lms04 … lms32 code tables, readme files) is named
 * as unused. Layouts and decoding in dk-lms-layout.ts, row mapping in dk-lms-rows.ts.
 *
 * A file's role comes from its record layout (record length and the shape of its columns); the
 * name (`lms01.txt`, `LMS01`, `lms01_2011-03-09.txt`) only breaks a tie. A package of a drug
 * lms01 does not list, or a price of a package lms02 does not list, is malformed; a repeated
 * Drug ID or varenummer keeps its first line and the repeat is excluded as a duplicate.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { FileRejectedError, provisionalNameKey } from './common.ts';
import type { InputFile } from './common.ts';
import { assignRoles, requireRole } from './file-roles.ts';
import type { RoleRule } from './file-roles.ts';
import { layoutMatch, lineProblem, recordOf } from './fixed-width.ts';
import { LMS01, LMS02, LMS03, LMS09, LMS12, LMS30, SYSTEM, decodeLms, readLms } from './dk-lms-layout.ts';
import type { LmsLayout, LmsRecord } from './dk-lms-layout.ts';
import { dateOf, ingredientsOf, packAttributes, packOf, priceDateOf, pricesOf, productOf } from './dk-lms-rows.ts';
import { EXCLUDED } from '../row-outcome.ts';
import type { RowProblem, RowTally } from '../row-outcome.ts';

export const DK_LMS_FILES = ['lms01.txt', 'lms02.txt'];
export const DK_LMS_OPTIONAL_FILES = ['lms03.txt', 'lms09.txt', 'lms12.txt', 'lms30.txt', 'system.txt'];

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

const LAYOUTS: readonly LmsLayout[] = [LMS01, LMS02, LMS03, LMS09, LMS12, LMS30];

/** Role rules: each takst file by its record layout, its usual name as the tie-breaker. */
const RULES: readonly RoleRule<string>[] = [
  ...LAYOUTS.map((layout) => ({ role: layout.id, names: [`${layout.id}.txt`, layout.id], recognise: (text: string) => layoutMatch(text, layout) })),
  {
    role: SYSTEM.id, names: ['system.txt'],
    recognise: (text: string) => (lineProblem(text.split(/\r?\n/)[0] ?? '', SYSTEM) === null ? 2 : 0),
  },
];

/** Takst members drugref knows and does not read, named with what they hold. */
const KNOWN: Readonly<Record<string, string>> = {
  'lms04.txt': 'generic substitution groups (not read)', 'lms05.txt': 'HF/HX substitution (not read)',
  'lms10.txt': 'former names (not read)', 'lms15.txt': 'unit codes (built in)', 'lms16.txt': 'reimbursement codes (not read)',
};

/** The takst date from system.txt (`0012.0 LMS-TAKST … 20110309`), ISO. */
function takstDateOf(file: InputFile | undefined): string | undefined {
  if (!file) return undefined;
  const first = decodeLms(file.content).split(/\r?\n/)[0] ?? '';
  return dateOf(recordOf(first, 1, SYSTEM).get('date'));
}

interface Read {
  records: Map<LmsLayout, LmsRecord[]>;
  tallies: Map<LmsLayout, RowTally>;
  files: Map<LmsLayout, InputFile>;
}

/** Reads every assigned file once, in layout order. */
function readAll(byRole: Map<string, InputFile[]>, problems: RowProblem[]): Read {
  const read: Read = { records: new Map(), tallies: new Map(), files: new Map() };
  for (const layout of LAYOUTS) {
    const file = byRole.get(layout.id)?.[0];
    if (!file) continue;
    const { records, tally } = readLms(file.name, file.content, layout, problems);
    read.records.set(layout, records);
    read.tallies.set(layout, tally);
    read.files.set(layout, file);
  }
  return read;
}

/** Records keyed by `field`; a repeated key keeps the first, the repeat excluded as a duplicate. */
function firstBy(records: readonly LmsRecord[], field: string, tally: RowTally | undefined): Map<string, LmsRecord> {
  const out = new Map<string, LmsRecord>();
  for (const r of records) {
    if (!out.has(r.get(field))) out.set(r.get(field), r);
    else tally?.unkeep({ excluded: EXCLUDED.duplicate });
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

/** ATC code → Danish text from lms12; the code's levels are written in separate columns (` A02BC01`). */
function atcTexts(records: readonly LmsRecord[]): Map<string, string> {
  return new Map(records.map((r) => [r.raw('atc').replace(/ /g, ''), r.get('tekst')]));
}

/**
 * Without lms30, the substance of a single-substance drug is the lms12 text of its level-5 ATC
 * code (J04AB02 `Rifampicin`). The takst fills the numeric strength only for a drug of one
 * substance (a combination, `80 mg+12,5 mg`, has zeros), so only such a drug gets one.
 */
function atcSubstance(drug: LmsRecord, atcText: string | undefined, seen: Map<string, string>): string[] {
  const atc = drug.get('atc');
  if (!atcText || !/^[A-Z]\d{2}[A-Z]{2}\d{2}$/.test(atc) || !/[1-9]/.test(drug.get('styrkeNumerisk'))) return [];
  seen.set(atcText, atc);
  return [atcText];
}

/**
 * Attaches each lms02 package (with its lms03 prices) to its drug; packages of unknown drugs
 * and prices of unknown packages are malformed; each product gets its packages' tilskud codes.
 */
function attachPackages(
  read: Read, packages: Map<string, LmsRecord>, prices: Map<string, LmsRecord>, products: Map<string, ProductEntry>, takstDate: string | undefined,
): void {
  const packsOf = new Map<string, LmsRecord[]>();
  for (const [varenummer, r] of packages) {
    const product = products.get(r.get('drugId'));
    if (!product) {
      read.tallies.get(LMS02)!.unkeep({ malformed: { line: r.line, message: `package ${varenummer} names Drug ID ${r.get('drugId')}, which lms01 does not list` } });
      continue;
    }
    const pack = packOf(r, takstDate);
    const price = prices.get(varenummer);
    const amounts = price ? pricesOf(price, priceDateOf(r)) : [];
    if (amounts.length > 0) pack.prices = amounts;
    product.packs.push(pack);
    packsOf.set(product.key, [...(packsOf.get(product.key) ?? []), r]);
  }
  for (const [varenummer, r] of prices) {
    if (packages.has(varenummer)) continue;
    read.tallies.get(LMS03)!.unkeep({ malformed: { line: r.line, message: `price of package ${varenummer}, which lms02 does not list` } });
  }
  for (const [key, list] of packsOf) Object.assign(products.get(key)!.attributes!, packAttributes(list));
}

/** The file reports in the order the files were given; unused members named. */
function reportsOf(files: readonly InputFile[], read: Read, system: InputFile | undefined, unused: readonly FileReport[]): FileReport[] {
  const byFile = new Map<InputFile, FileReport>();
  for (const [layout, tally] of read.tallies) byFile.set(read.files.get(layout)!, tally.report(layout.role));
  if (system) byFile.set(system, { file: system.name, role: SYSTEM.role, read: 1, kept: 1, malformed: 0 });
  const unusedByName = new Map(unused.map((u) => [u.file, u]));
  return files.map((f) => byFile.get(f) ?? unusedByName.get(f.name)!);
}

/** Parses a takst release (or its files); malformed lines are reported with file and line. */
export async function parseDkLms(files: InputFile[]): Promise<AdapterResult> {
  const assignment = await assignRoles(files, RULES, KNOWN);
  requireRole(assignment, LMS01.id, 'lms01.txt');
  requireRole(assignment, LMS02.id, 'lms02.txt');
  const problems: RowProblem[] = [];
  const read = readAll(assignment.byRole, problems);
  const system = assignment.byRole.get(SYSTEM.id)?.[0];
  const takstDate = takstDateOf(system);
  const drugs = firstBy(read.records.get(LMS01)!, 'drugId', read.tallies.get(LMS01));
  const packages = firstBy(read.records.get(LMS02)!, 'varenummer', read.tallies.get(LMS02));
  if (drugs.size === 0 || packages.size === 0) {
    throw new FileRejectedError(read.files.get(drugs.size === 0 ? LMS01 : LMS02)!.name, 'no record: an empty takst would delete the source on ingest');
  }
  const prices = firstBy(read.records.get(LMS03) ?? [], 'varenummer', read.tallies.get(LMS03));
  const firms = new Map((read.records.get(LMS09) ?? []).map((r) => [r.get('firma'), r.get('langtNavn') || r.get('kortNavn')]));
  const substances = substancesByDrug(read.records.get(LMS30) ?? []);
  const atcNames = atcTexts(read.records.get(LMS12) ?? []);

  const products = new Map<string, ProductEntry>();
  const atcSubstances = new Map<string, string>();
  for (const [id, drug] of drugs) {
    const product = productOf(drug);
    const holder = firms.get(drug.get('mtIndehaver'));
    if (holder) product.holder = holder;
    const atcText = atcNames.get(drug.get('atc'));
    if (atcText) product.attributes!.atc_text_da = atcText;
    product.ingredients = ingredientsOf(substances.get(id) ?? atcSubstance(drug, atcText, atcSubstances), drug);
    products.set(id, product);
  }
  attachPackages(read, packages, prices, products, takstDate);

  const substanceEntries: SubstanceEntry[] = [...new Set([...substances.values(), ...atcSubstances.keys()].flat())]
    .map((name) => ({ unii: provisionalNameKey(name), name, names: { da: name }, provisional: true, ...(atcSubstances.has(name) ? { atc_codes: [atcSubstances.get(name)!] } : {}) }));
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: DK_LMS_SOURCE, substances: substanceEntries, products: [...products.values()] },
    problems,
    files: reportsOf(files, read, system, assignment.unused),
  };
}
