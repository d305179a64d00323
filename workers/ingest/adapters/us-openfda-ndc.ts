/**
 * openFDA drug/ndc bulk download (`drug-ndc-0001-of-0001.json`, about 1 GB): `{ meta, results:
 * [ { product_ndc, brand_name, generic_name, active_ingredients, packaging, openfda, finished,
 * ... } ] }`, the FDA NDC directory enriched with the openfda harmonisation block.
 *
 * Streaming: the file's bytes are scanned once and each `results` element is parsed on its own
 * (json-stream.ts); the whole document is never one string (it would exceed V8's string limit)
 * nor one tree. `openOpenFdaNdc` (us-openfda-open.ts, what `drugref ingest` runs) reads the
 * file from disk in blocks and never holds it or the snapshot whole.
 *
 * Mapping: a product per record keyed like the directory (product_id, else product_ndc), packs
 * keyed by 11-digit NDC (so they merge with `fda-ndc` packs), RxCUIs as product `rxcui`
 * identifiers, classes from the `pharm_class_*` lists (`Nonsteroidal Anti-inflammatory Drug
 * [EPC]` → system `epc`, code `name:NONSTEROIDAL ANTI-INFLAMMATORY DRUG`, as fda-ndc keys them).
 * Unfinished records (`finished: false`) carry `attributes.unfinished` and stay out of search.
 *
 * Substances: openfda.unii lists a record's UNIIs without saying which ingredient each is.
 * A single-ingredient record with a single (check-character valid) UNII pairs them surely; a
 * multi-ingredient record gets a UNII for an ingredient only when single-ingredient records of
 * the same file pair that name with a UNII the record lists, else a provisional name key. So
 * nothing is linked on a guess; names paired with two different UNIIs are not used.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, ClassEntry, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import { FileRejectedError, ProblemLog, RowError, provisionalNameKey } from './common.ts';
import type { InputFile } from './common.ts';
import { forEachArrayElement } from './json-stream.ts';
import { readOpenFdaRecord } from './us-openfda-record.ts';
import type { OpenFdaProduct } from './us-openfda-record.ts';

export const OPENFDA_NDC_FILE = 'drug-ndc-0001-of-0001.json';

export const OPENFDA_NDC_SOURCE: SourceInfo = {
  id: 'us-openfda-ndc',
  name: 'openFDA drug/ndc (NDC directory with openfda harmonisation)',
  country: 'US',
  refresh_interval_hours: 24 * 8,
  licence: 'CC0 1.0 (openFDA); public domain US government data',
  url: 'https://open.fda.gov/apis/drug/ndc/',
};

export interface OpenFdaOptions {
  /** Date against which marketing end dates decide `withdrawn`; defaults to now. */
  asOf?: Date;
}

/** What the UNII resolution reads of a record (the streamed reader keeps only this between passes). */
export type OpenFdaNames = Pick<OpenFdaProduct, 'names' | 'uniis' | 'classes'> & { product: Pick<ProductEntry, 'ingredients'> };

/** Adds the name → UNII pair a single-ingredient record establishes; a name seen with two UNIIs maps to null. */
export function addNamePair(pairs: Map<string, string | null>, r: OpenFdaNames): void {
  if (r.names.length !== 1 || r.uniis.length !== 1) return;
  const [name, unii] = [r.names[0]!, r.uniis[0]!];
  const known = pairs.get(name);
  pairs.set(name, known === undefined || known === unii ? unii : null);
}

function substanceFor(substances: Map<string, SubstanceEntry>, key: string, name: string): SubstanceEntry {
  let entry = substances.get(key);
  if (!entry) {
    entry = key.startsWith('name:') ? { unii: key, name, provisional: true } : { unii: key, name };
    substances.set(key, entry);
  }
  return entry;
}

/** Settles the substance key of each ingredient of `r` and collects its substances (with single-substance classes). */
export function resolveRecord(r: OpenFdaNames, pairs: Map<string, string | null>, substances: Map<string, SubstanceEntry>): void {
  r.product.ingredients.forEach((ingredient, i) => {
    const name = r.names[i]!;
    const paired = r.names.length === 1 && r.uniis.length === 1 ? r.uniis[0]! : pairs.get(name);
    ingredient.unii = paired && r.uniis.includes(paired) ? paired : provisionalNameKey(name);
    substanceFor(substances, ingredient.unii, name);
  });
  const only = r.product.ingredients.length === 1 ? substances.get(r.product.ingredients[0]!.unii) : undefined;
  if (!only || r.classes.length === 0) return;
  const known = new Set((only.classes ?? []).map((c) => `${c.system}|${c.code}`));
  const added = r.classes.filter((c) => !known.has(`${c.system}|${c.code}`)).map(({ system, code }) => ({ system, code }));
  if (added.length > 0) only.classes = [...(only.classes ?? []), ...added];
}

/** Settles each ingredient's substance key and collects substances (with single-substance classes). */
function resolveSubstances(read: OpenFdaProduct[]): SubstanceEntry[] {
  const pairs = new Map<string, string | null>();
  for (const r of read) addNamePair(pairs, r);
  const substances = new Map<string, SubstanceEntry>();
  for (const r of read) resolveRecord(r, pairs, substances);
  return [...substances.values()];
}

/** What the reading of records has seen so far: product and pack keys (to refuse repeats) and classes. */
export interface Collector {
  productKeys: Set<string>;
  packKeys: Set<string>;
  classes: Map<string, ClassEntry>;
}

/** A new collector. */
export const newCollector = (): Collector => ({ productKeys: new Set(), packKeys: new Set(), classes: new Map() });

/**
 * Reads one record and counts its outcome in `tally`: a malformed one is reported, one whose
 * product key was read before is excluded as a duplicate (the first is kept); both give null.
 * Package NDCs dropped from a kept record as repeats are reported and added to `dropped`.
 */
export function collect(value: unknown, line: number, state: Collector, tally: RowTally, asOf: Date, dropped: string[] = []): OpenFdaProduct | null {
  const file = tally.file;
  const log = { add: (f: string, l: number, message: string) => tally.problems.push({ file: f, line: l, message }) };
  let record: OpenFdaProduct;
  try {
    record = readOpenFdaRecord(value, asOf);
  } catch (error) {
    if (!(error instanceof RowError)) throw error;
    tally.malformedRow(line, error.message);
    return null;
  }
  const { product } = record;
  if (state.productKeys.has(product.key)) { tally.exclude(EXCLUDED.duplicate); return null; }
  state.productKeys.add(product.key);
  tally.keep();
  product.packs = product.packs.filter((pack) => {
    if (!state.packKeys.has(pack.key)) { state.packKeys.add(pack.key); return true; }
    log.add(file, line, `package NDC ${pack.key} already belongs to another record; skipped here`);
    dropped.push(pack.key);
    return false;
  });
  for (const u of record.invalidUniis) log.add(file, line, `openfda.unii "${u}" fails its check character; ignored`);
  for (const c of record.classes) state.classes.set(`${c.system}|${c.code}`, c);
  return record;
}

/** The role the download is reported under: each `results` element is one of its rows. */
export const OPENFDA_ROLE = 'drug/ndc results';

/** Refuses a document whose top-level object has no `results`. */
export function requireResults(file: string, keys: string[]): void {
  if (!keys.includes('results')) throw new FileRejectedError(file, 'not an openFDA download: the top-level object has no "results" array');
}

/** The one file of the download. */
export function singleFile(files: InputFile[]): InputFile {
  if (files.length !== 1) throw new FileRejectedError(OPENFDA_NDC_FILE, `expected exactly one file (${OPENFDA_NDC_FILE}), got ${files.length}`);
  return files[0]!;
}

/**
 * Parses an openFDA drug/ndc download. Each `results` element is kept, malformed (reported by
 * line) or excluded as a duplicate of a product read before.
 */
export function parseOpenFdaNdc(files: InputFile[], options: OpenFdaOptions = {}): AdapterResult {
  const file = singleFile(files);
  const asOf = options.asOf ?? new Date();
  const log = new ProblemLog();
  const state = newCollector();
  const read: OpenFdaProduct[] = [];
  const tally = new RowTally(file.name, log.problems);
  const keys = forEachArrayElement(file.name, file.content, 'results', {
    onElement: (value, line) => {
      const record = collect(value, line, state, tally, asOf);
      if (record) read.push(record);
    },
    onMalformed: (line, message) => tally.malformedRow(line, message),
  });
  requireResults(file.name, keys);
  const substances = resolveSubstances(read);
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT, source: OPENFDA_NDC_SOURCE,
      classes: [...state.classes.values()], substances, products: read.map((r) => r.product),
    },
    problems: log.problems,
    files: [tally.report(OPENFDA_ROLE)],
  };
}
