/**
 * `drugref ingest` and the sync worker share this: the adapter registered under an id parses the
 * files completely (a structurally wrong file throws FileRejectedError and nothing is written),
 * then the ingest engine writes the snapshot in one transaction, so the change feed and the
 * webhook worker see the update like any `drugref ingest`. An adapter that can stream (`open`)
 * checks every row first and then hands the engine products read from disk while it writes;
 * a file that fails midway still rolls the whole ingest back.
 */
import type { Database } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import { FileRejectedError, findAdapter } from './adapters/index.ts';
import type { InputFile } from './adapters/index.ts';
import { IngestError, ingestSnapshot } from './engine.ts';
import type { IngestProgress, IngestReport } from './engine.ts';
import { StreamReadError } from './input.ts';
import { ShrinkRefusedError, skippedRefusal } from './shrink-guard.ts';
import type { GuardKind, ShrinkLimits } from './shrink-guard.ts';
import type { SnapshotInput, StreamedAdapterResult } from './input.ts';
import { countRows, outcomeOf } from './row-outcome.ts';
import type { RowCounts, RowProblem, SettledReport } from './row-outcome.ts';

export type { RowCounts } from './row-outcome.ts';

/** Refusal reasons are stored and printed; an adapter's message about a huge line is cut. */
const MAX_REASON_CHARS = 500;

export type ApplyResult =
  | { outcome: 'ok'; report: IngestReport; rows: RowCounts; problems: RowProblem[]; files: SettledReport[] }
  | { outcome: 'refused'; reason: string; rows: RowCounts | null; problems: RowProblem[]; files: SettledReport[]; guard?: GuardKind };

export interface ApplyOptions {
  /** Refuse the whole file when any row is malformed (otherwise those rows are skipped). */
  strict: boolean;
  log?: Pick<Logger, 'info'>;
  onProgress?: (progress: IngestProgress) => void;
  /** Products per engine chunk (engine.ts); tests set a small one. */
  chunkSize?: number;
  /** The shrink guard's limits (shrink-guard.ts); absent or null: no guard (`--allow-shrink`, tests). */
  shrink?: ShrinkLimits | null;
}

/** Why a file could not be read: the adapter's rejection, or any other failure to read it. */
function unreadable(err: unknown): string {
  const reason = err instanceof FileRejectedError ? `file rejected: ${err.message}` : `file unreadable: ${(err as Error).message}`;
  return reason.slice(0, MAX_REASON_CHARS);
}

/** Records the snapshot holds in arrays (a streamed snapshot's files report its counts). */
function keptInArrays(snapshot: SnapshotInput): number {
  const products = Array.isArray(snapshot.products) ? snapshot.products.length : 0;
  return products + (snapshot.substances?.length ?? 0) + (snapshot.atc?.length ?? 0);
}

/**
 * Parses `files` with adapter `adapterId` and ingests the result. A refusal (unknown adapter,
 * wrong file, malformed rows under `strict`, a snapshot the engine refuses) writes nothing and
 * is returned; any other failure (the database) is thrown, also with nothing written.
 */
export async function parseAndIngest(db: Database, adapterId: string, inputs: InputFile[], options: ApplyOptions): Promise<ApplyResult> {
  const adapter = findAdapter(adapterId);
  if (!adapter) return { outcome: 'refused', reason: `no adapter "${adapterId}" is registered`, rows: null, problems: [], files: [] };
  let parsed: StreamedAdapterResult;
  try {
    // The catalogue is offered to adapters whose files update what it holds (a partial FEST document, SL group prices alone).
    parsed = adapter.open ? await adapter.open(inputs, { catalogue: db }) : await adapter.parse(inputs, { catalogue: db });
  } catch (err) {
    // Parsing is pure: whatever it throws, the file could not be read and nothing was written.
    return { outcome: 'refused', reason: unreadable(err), rows: null, problems: [], files: [] };
  }
  const { snapshot, problems } = parsed;
  const files = (parsed.files ?? []).map((f) => outcomeOf(f));
  const rows = countRows(files, problems, keptInArrays(snapshot));
  // A problem an adapter reported outside its row counts still refuses a strict ingest.
  const malformed = Math.max(rows.malformed, problems.length);
  if (options.strict && malformed > 0) {
    return { outcome: 'refused', reason: `${malformed} malformed row(s) under strict mode`, rows, problems, files };
  }
  const skipped = options.shrink ? skippedRefusal(rows, options.shrink) : null;
  if (skipped) return { outcome: 'refused', reason: skipped, rows, problems, files, guard: 'skipped' };
  try {
    const report = await ingestSnapshot(db, snapshot, {
      ...(options.log ? { log: options.log } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.chunkSize ? { chunkSize: options.chunkSize } : {}), ...(options.shrink ? { shrinkLimits: options.shrink } : {}),
    });
    return { outcome: 'ok', report, rows, problems, files };
  } catch (err) {
    // A streamed file that failed midway: the transaction rolled back, nothing was written.
    if (err instanceof StreamReadError) return { outcome: 'refused', reason: unreadable(err.cause), rows, problems, files };
    if (err instanceof ShrinkRefusedError) return { outcome: 'refused', reason: err.message, rows, problems, files, guard: err.guard };
    if (!(err instanceof IngestError)) throw err;
    return { outcome: 'refused', reason: `snapshot rejected: ${err.message}`, rows, problems, files };
  }
}
