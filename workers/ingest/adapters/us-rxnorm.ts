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
import type { AdapterResult, FileReport, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
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

const SUBSTANCE_TTYS = new Set(['IN', 'PIN']);
const DRUG_TTYS = new Set(['SCD', 'SBD', 'GPCK', 'BPCK']);
/** Field counts with the trailing empty field of the closing `|`. */
const WIDTH = { conso: 19, sat: 14 } as const;
type Role = keyof typeof WIDTH;

interface Concept { tty: string; str: string }
interface Data {
  concepts: Map<string, Concept>;
  /** RXCUI → UNIIs of its MTHSPL substance atoms. */
  uniis: Map<string, Set<string>>;
  /** ndc11 → RXCUI (first concept to claim it). */
  ndcs: Map<string, string>;
  log: ProblemLog;
}

function roleOf(file: InputFile): Role {
  const base = file.name.split(/[\\/]/).pop()!.toUpperCase();
  if (base.startsWith('RXNCONSO')) return 'conso';
  if (base.startsWith('RXNSAT')) return 'sat';
  const first = file.content.subarray(0, Math.max(0, file.content.indexOf(0x0a))).toString('utf8');
  const fields = first.replace(/\r$/, '').split('|').length;
  if (fields === WIDTH.conso) return 'conso';
  if (fields === WIDTH.sat) return 'sat';
  throw new FileRejectedError(file.name, `not an RxNorm RRF file of a known layout: RXNCONSO has 18 and RXNSAT 13 pipe-terminated fields, the first line has ${fields - 1}`);
}

/** One RXNCONSO line; true when kept. */
function consoLine(f: string[], data: Data, file: string, line: number): boolean {
  const [rxcui, sab, tty, code, str, suppress] = [f[0]!, f[11]!, f[12]!, f[13]!, f[14]!, f[16]!];
  if (suppress !== 'N') return false;
  if (sab === 'MTHSPL' && tty === 'SU') {
    const unii = normaliseIdentifier('unii', code);
    if (!unii) { data.log.add(file, line, `MTHSPL substance code "${code}" is not a valid UNII`); return false; }
    const set = data.uniis.get(rxcui) ?? new Set<string>();
    data.uniis.set(rxcui, set.add(unii));
    return true;
  }
  if (sab !== 'RXNORM' || !(SUBSTANCE_TTYS.has(tty) || DRUG_TTYS.has(tty))) return false;
  if (!/^\d+$/.test(rxcui) || str.trim() === '') { data.log.add(file, line, `RXCUI "${rxcui}" or STR is malformed`); return false; }
  data.concepts.set(rxcui, { tty, str: str.trim() });
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

function readRrf(file: InputFile, role: Role, data: Data): FileReport {
  const report: FileReport = { file: file.name, role: role === 'conso' ? 'RXNCONSO' : 'RXNSAT', read: 0, kept: 0, skipped: 0 };
  forEachLine(file.content, (text, line) => {
    report.read += 1;
    // NDC attributes are a small share of RXNSAT: skip the rest before splitting.
    if (role === 'sat' && !text.includes('|NDC|RXNORM|')) return;
    const fields = text.split('|');
    if (fields.length !== WIDTH[role]) { data.log.add(file.name, line, `${fields.length - 1} fields instead of ${WIDTH[role] - 1}`); return; }
    if (role === 'conso' ? consoLine(fields, data, file.name, line) : satLine(fields, data, file.name, line)) report.kept += 1;
  });
  report.skipped = report.read - report.kept;
  return report;
}

function substances(data: Data): { entries: SubstanceEntry[] } {
  const byKey = new Map<string, SubstanceEntry>();
  for (const [rxcui, c] of data.concepts) {
    if (!SUBSTANCE_TTYS.has(c.tty)) continue;
    const uniis = [...(data.uniis.get(rxcui) ?? [])];
    // Only an unambiguous MTHSPL UNII keys the ingredient; otherwise its name does.
    const key = uniis.length === 1 ? uniis[0]! : provisionalNameKey(c.str);
    if (byKey.has(key)) continue;
    byKey.set(key, { unii: key, name: c.str, names: { rxnorm: c.str }, rxcui, ...(key.startsWith('name:') ? { provisional: true } : {}) });
  }
  return { entries: [...byKey.values()] };
}

/** 5-4-2 print of an 11-digit NDC (the only package text RxNorm has). */
const dashed = (ndc11: string): string => `${ndc11.slice(0, 5)}-${ndc11.slice(5, 9)}-${ndc11.slice(9)}`;

function products(data: Data): ProductEntry[] {
  const byRxcui = new Map<string, ProductEntry>();
  for (const [ndc11, rxcui] of data.ndcs) {
    const concept = data.concepts.get(rxcui);
    if (!concept || !DRUG_TTYS.has(concept.tty)) continue;
    let product = byRxcui.get(rxcui);
    if (!product) {
      product = {
        key: rxcui, country: 'US', product_name: concept.str, identifiers: [{ system: 'rxcui', code: rxcui }],
        ingredients: [], packs: [], marketing_status: 'active', attributes: { tty: concept.tty },
      };
      const brand = /\[([^\]]+)\]\s*$/.exec(concept.str);
      if (brand && (concept.tty === 'SBD' || concept.tty === 'BPCK')) product.brand = brand[1]!.trim();
      byRxcui.set(rxcui, product);
    }
    product.packs.push({ key: ndc11, description: dashed(ndc11), identifiers: [{ system: 'ndc11', code: ndc11 }] });
  }
  return [...byRxcui.values()];
}

/** Parses RXNCONSO.RRF (and RXNSAT.RRF for NDCs); malformed lines are reported and skipped. */
export function parseUsRxnorm(files: InputFile[]): AdapterResult {
  const roles = files.map((f) => ({ file: f, role: roleOf(f) }));
  if (!roles.some((r) => r.role === 'conso')) throw new FileRejectedError(RXNCONSO_FILE, 'file missing: the RxNorm adapter needs RXNCONSO.RRF (and RXNSAT.RRF for NDCs)');
  const data: Data = { concepts: new Map(), uniis: new Map(), ndcs: new Map(), log: new ProblemLog() };
  // Concepts first, whatever the order given: NDC owners are checked against them.
  const order = [...roles.filter((r) => r.role === 'conso'), ...roles.filter((r) => r.role === 'sat')];
  const reports = new Map(order.map(({ file, role }) => [file, readRrf(file, role, data)]));
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: RXNORM_SOURCE, substances: substances(data).entries, products: products(data) },
    problems: data.log.problems,
    files: files.map((f) => reports.get(f)!),
  };
}
