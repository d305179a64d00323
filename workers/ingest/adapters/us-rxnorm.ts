/**
 * RxNorm full release (NLM), Rich Release Format: `RXNCONSO.RRF` (concept names, 18 fields +
 * trailing `|`: RXCUI|LAT|TS|LUI|STT|SUI|ISPREF|RXAUI|SAUI|SCUI|SDUI|SAB|TTY|CODE|STR|SRL|SUPPRESS|CVF|)
 * and `RXNSAT.RRF` (attributes, 13 fields + `|`: RXCUI|LUI|SUI|RXAUI|STYPE|CODE|ATUI|SATUI|ATN|SAB|ATV|SUPPRESS|CVF|).
 * No header: each file's role comes from its field count; other release members are reported unused.
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
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, PackEntry, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { EXCLUDED, RowTally, unusedFile } from '../row-outcome.ts';
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
  /**
   * Where the kept atoms and NDC attributes were counted, so that those the snapshot ends up
   * without (a drug concept with no NDC, an NDC of no drug concept, a UNII of no ingredient)
   * can be moved to excluded once every file is read: RXCUI (or ndc11) → file tally → rows.
   */
  counted: { drugs: Counted; uniis: Counted; ndcs: Counted };
  log: ProblemLog;
  /** False while streaming: drug concepts keep no name until their products are read again. */
  drugNames: boolean;
}

/** Rows kept per key and file. */
type Counted = Map<string, Map<RowTally, number>>;

function count(counted: Counted, key: string, tally: RowTally): void {
  const byFile = counted.get(key) ?? new Map<RowTally, number>();
  counted.set(key, byFile.set(tally, (byFile.get(tally) ?? 0) + 1));
}

/** Empty reading state. */
export const newData = (drugNames = true): Data => ({
  concepts: new Map(), uniis: new Map(), ndcs: new Map(), log: new ProblemLog(), drugNames,
  counted: { drugs: new Map(), uniis: new Map(), ndcs: new Map() },
});

/** Reasons RxNorm rows are left out: `out_of_scope` is most of a release (other sources, term types, attributes). */
export const RXNORM_EXCLUDED = {
  outOfScope: EXCLUDED.outOfScope,
  /** SUPPRESS is not N: an obsolete or suppressed atom or attribute. */
  suppressed: 'suppressed',
  duplicate: EXCLUDED.duplicate,
  /** A drug concept no SAB=RXNORM NDC names: not a pack anyone dispenses in the US. */
  noNdc: 'no_ndc',
  /** An NDC of an RXCUI that is no kept drug concept (suppressed, or of another term type). */
  noDrug: 'no_drug_concept',
} as const;

/**
 * The role of a release member, from its first line's field count (RRF files have no header,
 * and the layout is what tells them apart): RXNCONSO has 18 pipe-terminated fields, RXNSAT 13.
 * Null for every other member (RXNREL, RXNSTY, RXNDOC, RXNCUI, the readme ...): reported unused.
 * The name plays no part, so dated or renamed copies work and a misnamed file is not misread.
 */
export function roleByFirstLine(first: string): Role | null {
  const fields = first.replace(/\r$/, '').split('|').length;
  if (fields === WIDTH.conso) return 'conso';
  return fields === WIDTH.sat ? 'sat' : null;
}

/** The unused report of a member that is neither RXNCONSO nor RXNSAT. */
export function unusedMember(file: string, first: string): FileReport {
  const fields = first.replace(/\r$/, '').split('|').length - 1;
  return unusedFile(file, `not RXNCONSO (18 fields) nor RXNSAT (13 fields): its first line has ${fields}; a release member this adapter does not read`);
}

function firstLine(file: InputFile): string {
  const end = file.content.indexOf(0x0a);
  return file.content.subarray(0, end < 0 ? Math.min(file.content.length, 65536) : end).toString('utf8');
}

/** Refuses a release without RXNCONSO. */
export function requireConso(roles: Array<Role | null>): void {
  if (!roles.includes('conso')) throw new FileRejectedError(RXNCONSO_FILE, 'file missing: the RxNorm adapter needs RXNCONSO.RRF (and RXNSAT.RRF for NDCs)');
}

/** What an RXNCONSO line holds for this adapter: a concept, an MTHSPL UNII, a problem (string), or why it is left out. */
export type ConsoAtom = { rxcui: string; tty: string; str: string } | { rxcui: string; unii: string } | string | { excluded: string };

/** Reads one RXNCONSO line's fields. */
export function consoAtom(f: string[]): ConsoAtom {
  const [rxcui, sab, tty, code, str, suppress] = [f[0]!, f[11]!, f[12]!, f[13]!, f[14]!, f[16]!];
  const wanted = (sab === 'MTHSPL' && tty === 'SU') || (sab === 'RXNORM' && (SUBSTANCE_TTYS.has(tty) || DRUG_TTYS.has(tty)));
  if (!wanted) return { excluded: RXNORM_EXCLUDED.outOfScope };
  if (suppress !== 'N') return { excluded: RXNORM_EXCLUDED.suppressed };
  if (sab === 'MTHSPL' && tty === 'SU') {
    const unii = normaliseIdentifier('unii', code);
    return unii ? { rxcui, unii } : `MTHSPL substance code "${code}" is not a valid UNII`;
  }
  if (!/^\d+$/.test(rxcui) || str.trim() === '') return `RXCUI "${rxcui}" or STR is malformed`;
  return { rxcui, tty, str: str.trim() };
}

/** One RXNCONSO line, counted in `tally`. */
function consoLine(f: string[], data: Data, tally: RowTally, line: number): void {
  const atom = consoAtom(f);
  if (typeof atom === 'string') { tally.malformedRow(line, atom); return; }
  if ('excluded' in atom) { tally.exclude(atom.excluded); return; }
  tally.keep();
  if ('unii' in atom) {
    const set = data.uniis.get(atom.rxcui) ?? new Set<string>();
    data.uniis.set(atom.rxcui, set.add(atom.unii));
    count(data.counted.uniis, atom.rxcui, tally);
    return;
  }
  data.concepts.set(atom.rxcui, { tty: atom.tty, str: data.drugNames || SUBSTANCE_TTYS.has(atom.tty) ? atom.str : '' });
  if (DRUG_TTYS.has(atom.tty)) count(data.counted.drugs, atom.rxcui, tally);
}

/** One RXNSAT line, counted in `tally`. */
function satLine(f: string[], data: Data, tally: RowTally, line: number): void {
  const [rxcui, atn, sab, atv, suppress] = [f[0]!, f[8]!, f[9]!, f[10]!, f[11]!];
  if (atn !== 'NDC' || sab !== 'RXNORM') { tally.exclude(RXNORM_EXCLUDED.outOfScope); return; }
  if (suppress !== 'N') { tally.exclude(RXNORM_EXCLUDED.suppressed); return; }
  const ndc11 = ndc11Of(atv);
  if (!ndc11) { tally.malformedRow(line, `NDC "${atv}" is not an 11-digit NDC`); return; }
  const owner = data.ndcs.get(ndc11);
  if (owner === rxcui) { tally.exclude(RXNORM_EXCLUDED.duplicate); return; }
  if (owner !== undefined) { tally.malformedRow(line, `NDC ${ndc11} is already attached to RXCUI ${owner}; not to ${rxcui}`); return; }
  data.ndcs.set(ndc11, rxcui);
  tally.keep();
  count(data.counted.ndcs, ndc11, tally);
}

function unkeepAll(byFile: Map<RowTally, number> | undefined, excluded: string): void {
  for (const [tally, n] of byFile ?? []) for (let i = 0; i < n; i += 1) tally.unkeep({ excluded });
}

/**
 * Once every file is read, moves to excluded the kept rows the snapshot has no place for: the
 * atoms of drug concepts without NDCs, the NDCs of no kept drug concept, and the UNIIs of no
 * ingredient concept. So `kept` counts exactly the rows behind the snapshot.
 */
export function settleOutcomes(data: Data): void {
  const withNdc = new Set<string>();
  for (const [ndc11, rxcui] of data.ndcs) {
    if (DRUG_TTYS.has(data.concepts.get(rxcui)?.tty ?? '')) withNdc.add(rxcui);
    else unkeepAll(data.counted.ndcs.get(ndc11), RXNORM_EXCLUDED.noDrug);
  }
  for (const [rxcui, byFile] of data.counted.drugs) if (!withNdc.has(rxcui)) unkeepAll(byFile, RXNORM_EXCLUDED.noNdc);
  for (const [rxcui, byFile] of data.counted.uniis) {
    if (!SUBSTANCE_TTYS.has(data.concepts.get(rxcui)?.tty ?? '')) unkeepAll(byFile, RXNORM_EXCLUDED.outOfScope);
  }
  data.counted = { drugs: new Map(), uniis: new Map(), ndcs: new Map() };
}

/** A line's fields, or the problem with its field count. */
export function rrfFields(role: Role, text: string): string[] | string {
  const fields = text.split('|');
  return fields.length === WIDTH[role] ? fields : `${fields.length - 1} fields instead of ${WIDTH[role] - 1}`;
}

/** The role a report names a file of `role` by. */
export const roleLabel = (role: Role): string => (role === 'conso' ? 'RXNCONSO' : 'RXNSAT');

/** Reads one line of a file of `role` into `data` and counts its outcome in `tally`. */
export function readRrfLine(role: Role, text: string, line: number, data: Data, tally: RowTally): void {
  // NDC attributes are a small share of RXNSAT: the rest is out of scope before splitting.
  if (role === 'sat' && !text.includes('|NDC|RXNORM|')) { tally.exclude(RXNORM_EXCLUDED.outOfScope); return; }
  const fields = rrfFields(role, text);
  if (typeof fields === 'string') { tally.malformedRow(line, fields); return; }
  if (role === 'conso') consoLine(fields, data, tally, line);
  else satLine(fields, data, tally, line);
}

function readRrf(file: InputFile, role: Role, data: Data): RowTally {
  const tally = new RowTally(file.name, data.log.problems);
  forEachLine(file.content, (text, line) => readRrfLine(role, text, line, data, tally));
  return tally;
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

/**
 * Parses RXNCONSO.RRF (and RXNSAT.RRF for NDCs). Each line is kept, malformed (reported with
 * its line) or excluded: other sources, term types and attributes `out_of_scope`, suppressed
 * atoms `suppressed`, a repeated NDC `duplicate`, drugs without NDCs `no_ndc`.
 */
export function parseUsRxnorm(files: InputFile[]): AdapterResult {
  const roles = files.map((f) => ({ file: f, first: firstLine(f) })).map((r) => ({ ...r, role: roleByFirstLine(r.first) }));
  requireConso(roles.map((r) => r.role));
  const data = newData();
  // Concepts first, whatever the order given: NDC owners are checked against them.
  const read = (role: Role) => roles.filter((r) => r.role === role).map(({ file }) => ({ file, role, tally: readRrf(file, role, data) }));
  const tallies = [...read('conso'), ...read('sat')];
  settleOutcomes(data);
  const reports = new Map<InputFile, FileReport>(tallies.map(({ file, role, tally }) => [file, tally.report(roleLabel(role))]));
  for (const { file, first, role } of roles) if (role === null) reports.set(file, unusedMember(file.name, first));
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: RXNORM_SOURCE, substances: substances(data), products: products(data) },
    problems: data.log.problems,
    files: files.map((f) => reports.get(f)!),
  };
}
