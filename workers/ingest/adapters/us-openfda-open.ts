/**
 * The openFDA drug/ndc download opened for a streamed ingest (what `drugref ingest
 * us-openfda-ndc` and the sync worker run): the same snapshot, problems and file report as
 * `parseOpenFdaNdc` (us-openfda-ndc.ts), read from disk in blocks (json-stream.ts), twice:
 *
 * 1. on opening, every record is read and checked (malformed JSON, malformed records, repeated
 *    products and package NDCs), so problems and counts are settled before anything is
 *    written; the substances are settled as the records come (us-openfda-substances.ts: only
 *    the records whose UNII pairing waits on the rest of the file are kept until its end);
 * 2. while the engine ingests, the records again, yielding each kept product (known by its
 *    position, without its packages that repeat an earlier record's) with its substances
 *    settled as on opening. Only the kept positions and the repeated packages are held between
 *    the passes, not the sets of keys the first pass checked repeats against.
 *
 * A record whose fate differs between the passes (the file changed on disk) refuses the ingest.
 */
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { ProductEntry, SubstanceEntry } from '../snapshot.ts';
import type { StreamedAdapterResult } from '../input.ts';
import { RowTally } from '../row-outcome.ts';
import { FileRejectedError, ProblemLog, RowError } from './common.ts';
import type { InputFile } from './common.ts';
import { jsonFileArrayElements } from './json-stream.ts';
import type { ArrayElement } from './json-stream.ts';
import {
  OPENFDA_NDC_SOURCE, OPENFDA_ROLE, collect, newCollector, requireResults, resolveRecord, singleFile,
} from './us-openfda-ndc.ts';
import type { OpenFdaOptions } from './us-openfda-ndc.ts';
import { StreamedSubstances } from './us-openfda-substances.ts';
import { readOpenFdaRecord } from './us-openfda-record.ts';
import type { OpenFdaProduct } from './us-openfda-record.ts';

/** Every element of `results`, then the top-level keys. */
async function readAll(file: InputFile, onElement: (element: ArrayElement) => void): Promise<string[]> {
  const elements = jsonFileArrayElements(file, 'results');
  for (;;) {
    const next = await elements.next();
    if (next.done) return next.value;
    onElement(next.value);
  }
}

const changedWhileRead = (file: string, line: number): FileRejectedError =>
  new FileRejectedError(file, `line ${line} reads differently from when the file was opened (it changed during the ingest)`);

/** Opens the download for a streamed ingest; see the module comment. */
export async function openOpenFdaNdc(files: InputFile[], options: OpenFdaOptions = {}): Promise<StreamedAdapterResult> {
  const file = singleFile(files);
  const asOf = options.asOf ?? new Date();
  const log = new ProblemLog();
  const state = newCollector();
  const resolved = new StreamedSubstances();
  /** Positions (1-based) of the records kept. */
  const kept = new Set<number>();
  /** Package NDCs each kept record loses as repeats, by position. */
  const repeats = new Map<number, Set<string>>();
  const tally = new RowTally(file.name, log.problems);
  let count = 0;
  const keys = await readAll(file, (element) => {
    count += 1;
    if ('malformed' in element) { tally.malformedRow(element.line, element.malformed); return; }
    const dropped: string[] = [];
    const record = collect(element.value, element.line, state, tally, asOf, dropped);
    if (dropped.length > 0) repeats.set(count, new Set(dropped));
    if (!record) return;
    // By position: a minified download has every record on one line.
    kept.add(count);
    resolved.add(count, record);
  });
  requireResults(file.name, keys);
  const substances = resolved.finish();
  const { pairs } = resolved;
  state.productKeys.clear();
  state.packKeys.clear();

  /** A record kept on opening, read again; null when it no longer reads. */
  const reread = (value: unknown): OpenFdaProduct | null => {
    try {
      return readOpenFdaRecord(value, asOf);
    } catch (error) {
      if (error instanceof RowError) return null;
      throw error;
    }
  };
  async function* products(): AsyncGenerator<ProductEntry> {
    const scratch = new Map<string, SubstanceEntry>();
    let [position, yielded] = [0, 0];
    for await (const element of jsonFileArrayElements(file, 'results')) {
      position += 1;
      if (!kept.has(position)) continue;
      const record = 'malformed' in element ? null : reread(element.value);
      if (!record) throw changedWhileRead(file.name, element.line);
      const repeated = repeats.get(position);
      if (repeated) record.product.packs = record.product.packs.filter((p) => !repeated.has(p.key));
      resolveRecord(record, pairs, scratch);
      yielded += 1;
      yield record.product;
    }
    if (yielded !== kept.size) throw new FileRejectedError(file.name, 'the file changed during the ingest (fewer records than when it was opened)');
  }
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT, source: OPENFDA_NDC_SOURCE,
      classes: [...state.classes.values()], substances, products: products(),
    },
    problems: log.problems,
    files: [tally.report(OPENFDA_ROLE)],
  };
}
