/**
 * RxNorm full release (NLM), Rich Release Format: `RXNCONSO.RRF` (concept names, 18 fields +
 * trailing `|`: RXCUI|LAT|TS|LUI|STT|SUI|ISPREF|RXAUI|SAUI|SCUI|SDUI|SAB|TTY|CODE|STR|SRL|SUPPRESS|CVF|)
 * and `RXNSAT.RRF` (attributes, 13 fields + `|`: RXCUI|LUI|SUI|RXAUI|STYPE|CODE|ATUI|SATUI|ATN|SAB|ATV|SUPPRESS|CVF|).
 * No header: each file's role comes from its name, else from its field count.
 *
 * Kept, for NDC ↔ RxCUI ↔ name: the non-suppressed SAB=RXNORM concepts of TTY IN and PIN
 * (substances), SCD, SBD, GPCK and BPCK (drugs and packs, which carry the NDCs), the UNIIs of
 * SAB=MTHSPL substance atoms (TTY SU, CODE = UNII, on the ingredient's RXCUI), and the
 * SAB=RXNORM `NDC` attributes (11-digit NDCs). Brand names (BN) are not read apart: an SBD's
 * name ends with its brand in brackets (`... Oral Tablet [Advil]`), which is the BN's string.
 *
 * Catalogue shape: substances per IN/PIN, keyed by their UNII where MTHSPL gives exactly one
 * valid one, else provisionally by name, with `rxcui` and `names.rxnorm`; a product per
 * SCD/SBD/GPCK/BPCK that has NDCs (country US, key = RXCUI, `rxcui` identifier), with a pack
 * per NDC keyed by ndc11. The merge step then links those packs to the FDA directory's,
 * openFDA's and SPL's packs of the same ndc11, so every US pack answers with its RxCUI.
 * Concepts without NDCs are left out: they are not packs anyone dispenses in the US.
 */
import { normaliseIdentifier } from '../../../resolvers/catalogue/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, PackEntry, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { FileRejectedError, ProblemLog, forEachLine, provisionalNameKey } from './common.ts';
import type { InputFile } from './common.ts';
import { ndc11Of } from './us-ndc.ts';

export const RXNCONSO_FILE = 'RXNCONSO.RRF';
export const RXNSAT_FILE = 'RXNSAT.RRF';

export const RXNORM_SOURCE: SourceInfo = {
  id: 'us-rxnorm',
  name: 'RxNorm (NLM): clinical drugs, ingredients and their NDCs',
  country: 'US',
  // NLM publishes a full release monthly (weekly updates in between).
  refresh_interval_hours: 24 * 35,
  licence: 'RxNorm, NLM: SAB=RXNORM content free of additional restrictions; full release under the UMLS Metathesaurus licence',
  url: 'https://www.nlm.nih.gov/research/umls/rxnorm/docs/rxnormfiles.html',
};

export const SUBSTANCE_TTYS = new Set(['IN', 'PIN']);
export const DRUG_TTYS = new Set(['SCD', 'SBD', 'GPCK', 'BPCK']);
/** Field counts with the trailing empty field of the closing `|`. */
const WIDTH = { conso: 19, sat: 14 } as const;
export type Role = keyof typeof WIDTH;

export interface Concept { tty: string; str: string }
export interface Data {
  concepts: Map<string, Concept>;
  /** RXCUI → UNIIs of its MTHSPL substance atoms. */
  uniis: Map<string, Set<string>>;
  /** ndc11 → RXCUI (first concept to claim it). */
  ndcs: Map<string, string>;
  log: ProblemLog;
  /** False while streaming: drug concepts keep no name until their products are read again. */
  drugNames: boolean;
}

/** Empty reading state. */
export const newData = (drugNames = true): Data => ({ concepts: new Map(), uniis: new Map(), ndcs: new Map(), log: new ProblemLog(), drugNames });

/** The role a file's name gives it, if any. */
export function roleByName(name: string): Role | null {
  const base = name.split(/[\\/]/).pop()!.toUpperCase();
  if (base.startsWith('RXNCONSO')) return 'conso';
  if (base.startsWith('RXNSAT')) return 'sat';
  return null;
}

/** The role of a file not named like a release file, from its first line's field count. */
export function roleByFirstLine(file: string, first: string): Role {
  const fields = first.replace(/\r$/, '').split('|').length;
  if (fields === WIDTH.conso) return 'conso';
  if (fields === WIDTH.sat) return 'sat';
  throw new FileRejectedError(file, `not an RxNorm RRF file of a known layout: RXNCONSO has 18 and RXNSAT 13 pipe-terminated fields, the first line has ${fields - 1}`);
}

function roleOf(file: InputFile): Role {
  return roleByName(file.name) ?? roleByFirstLine(file.name, file.content.subarray(0, Math.max(0, file.content.indexOf(0x0a))).toString('utf8'));
}

/** Refuses a release without RXNCONSO. */
export function requireConso(roles: Role[]): void {
  if (!roles.includes('conso')) throw new FileRejectedError(RXNCONSO_FILE, 'file missing: the RxNorm adapter needs RXNCONSO.RRF (and RXNSAT.RRF for NDCs)');
}

/** What an RXNCONSO line holds for this adapter: a concept, an MTHSPL UNII, a problem (string), or nothing (null). */
export type ConsoAtom = { rxcui: string; tty: string; str: string } | { rxcui: string; unii: string } | string | null;

/** Reads one RXNCONSO line's fields. */
export function consoAtom(f: string[]): ConsoAtom {
  const [rxcui, sab, tty, code, str, suppress] = [f[0]!, f[11]!, f[12]!, f[13]!, f[14]!, f[16]!];
  if (suppress !== 'N') return null;
  if (sab === 'MTHSPL' && tty === 'SU') {
    const unii = normaliseIdentifier('unii', code);
    return unii ? { rxcui, unii } : `MTHSPL substance code "${code}" is not a valid UNII`;
  }
  if (sab !== 'RXNORM' || !(SUBSTANCE_TTYS.has(tty) || DRUG_TTYS.has(tty))) return null;
  if (!/^\d+$/.test(rxcui) || str.trim() === '') return `RXCUI "${rxcui}" or STR is malformed`;
  return { rxcui, tty, str: str.trim() };
}

/** One RXNCONSO line; true when kept. */
function consoLine(f: string[], data: Data, file: string, line: number): boolean {
  const atom = consoAtom(f);
  if (atom === null) return false;
  if (typeof atom === 'string') { data.log.add(file, line, atom); return false; }
  if ('unii' in atom) {
    const set = data.uniis.get(atom.rxcui) ?? new Set<string>();
    data.uniis.set(atom.rxcui, set.add(atom.unii));
    return true;
  }
  data.concepts.set(atom.rxcui, { tty: atom.tty, str: data.drugNames || SUBSTANCE_TTYS.has(atom.tty) ? atom.str : '' });
  return true;
}

/** One RXNSAT line; true when kept. */
function satLine(f: string[], data: Data, file: string, line: number): boolean {
  const [rxcui, atn, sab, atv, suppress] = [f[0]!, f[8]!, f[9]!, f[10]!, f[11]!];
  if (atn !== 'NDC' || sab !== 'RXNORM' || suppress !== 'N') return false;
  const ndc11 = ndc11Of(atv);
  if (!ndc11) { data.log.add(file, line, `NDC "${atv}" is not an 11-digit NDC`); return false; }
  const owner = data.ndcs.get(ndc11);
  if (owner === undefined) data.ndcs.set(ndc11, rxcui);
  else if (owner !== rxcui) { data.log.add(file, line, `NDC ${ndc11} is already attached to RXCUI ${owner}; not to ${rxcui}`); return false; }
  return true;
}

/** A line's fields, or the problem with its field count. */
export function rrfFields(role: Role, text: string): string[] | string {
  const fields = text.split('|');
  return fields.length === WIDTH[role] ? fields : `${fields.length - 1} fields instead of ${WIDTH[role] - 1}`;
}

/** An empty report for a file of `role`. */
export const rrfReport = (file: string, role: Role): FileReport => ({ file, role: role === 'conso' ? 'RXNCONSO' : 'RXNSAT', read: 0, kept: 0, skipped: 0 });

/** Reads one line of a file of `role` into `data` and counts it in `report`. */
export function readRrfLine(role: Role, text: string, line: number, data: Data, report: FileReport): void {
  report.read += 1;
  // NDC attributes are a small share of RXNSAT: skip the rest before splitting.
  if (role === 'sat' && !text.includes('|NDC|RXNORM|')) return;
  const fields = rrfFields(role, text);
  if (typeof fields === 'string') { data.log.add(report.file, line, fields); return; }
  if (role === 'conso' ? consoLine(fields, data, report.file, line) : satLine(fields, data, report.file, line)) report.kept += 1;
}

function readRrf(file: InputFile, role: Role, data: Data): FileReport {
  const report = rrfReport(file.name, role);
  forEachLine(file.content, (text, line) => readRrfLine(role, text, line, data, report));
  report.skipped = report.read - report.kept;
  return report;
}

/** The substances of the concepts read. */
export function substances(data: Data): SubstanceEntry[] {
  const byKey = new Map<string, SubstanceEntry>();
  for (const [rxcui, c] of data.concepts) {
    if (!SUBSTANCE_TTYS.has(c.tty)) continue;
    const uniis = [...(data.uniis.get(rxcui) ?? [])];
    // Only an unambiguous MTHSPL UNII keys the ingredient; otherwise its name does.
    const key = uniis.length === 1 ? uniis[0]! : provisionalNameKey(c.str);
    if (byKey.has(key)) continue;
    byKey.set(key, { unii: key, name: c.str, names: { rxnorm: c.str }, rxcui, ...(key.startsWith('name:') ? { provisional: true } : {}) });
  }
  return [...byKey.values()];
}

/** 5-4-2 print of an 11-digit NDC (the only package text RxNorm has). */
const dashed = (ndc11: string): string => `${ndc11.slice(0, 5)}-${ndc11.slice(5, 9)}-${ndc11.slice(9)}`;

/** A pack per NDC, keyed by ndc11. */
export const packOf = (ndc11: string): PackEntry => ({ key: ndc11, description: dashed(ndc11), identifiers: [{ system: 'ndc11', code: ndc11 }] });

/** The product of a drug concept, without its packs. */
export function productOf(rxcui: string, concept: Concept): ProductEntry {
  const product: ProductEntry = {
    key: rxcui, country: 'US', product_name: concept.str, identifiers: [{ system: 'rxcui', code: rxcui }],
    ingredients: [], packs: [], marketing_status: 'active', attributes: { tty: concept.tty },
  };
  const brand = /\[([^\]]+)\]\s*$/.exec(concept.str);
  if (brand && (concept.tty === 'SBD' || concept.tty === 'BPCK')) product.brand = brand[1]!.trim();
  return product;
}

/** The NDCs of each drug concept, in the order they were first claimed. */
export function drugNdcs(data: Data): Map<string, string[]> {
  const byRxcui = new Map<string, string[]>();
  for (const [ndc11, rxcui] of data.ndcs) {
    const concept = data.concepts.get(rxcui);
    if (!concept || !DRUG_TTYS.has(concept.tty)) continue;
    const ndcs = byRxcui.get(rxcui);
    if (ndcs) ndcs.push(ndc11);
    else byRxcui.set(rxcui, [ndc11]);
  }
  return byRxcui;
}

function products(data: Data): ProductEntry[] {
  return [...drugNdcs(data)].map(([rxcui, ndcs]) => ({ ...productOf(rxcui, data.concepts.get(rxcui)!), packs: ndcs.map(packOf) }));
}

/** Parses RXNCONSO.RRF (and RXNSAT.RRF for NDCs); malformed lines are reported and skipped. */
export function parseUsRxnorm(files: InputFile[]): AdapterResult {
  const roles = files.map((f) => ({ file: f, role: roleOf(f) }));
  requireConso(roles.map((r) => r.role));
  const data = newData();
  // Concepts first, whatever the order given: NDC owners are checked against them.
  const order = [...roles.filter((r) => r.role === 'conso'), ...roles.filter((r) => r.role === 'sat')];
  const reports = new Map(order.map(({ file, role }) => [file, readRrf(file, role, data)]));
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: RXNORM_SOURCE, substances: substances(data), products: products(data) },
    problems: data.log.problems,
    files: files.map((f) => reports.get(f)!),
  };
}
