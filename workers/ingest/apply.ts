/**
 * `drugref ingest` and the sync worker share this: the adapter registered under an id parses the
 * files completely (a structurally wrong file throws FileRejectedError and nothing is written),
 * then the ingest engine writes the snapshot in one transaction, so the change feed and the
 * webhook worker see the update like any `drugref ingest`. An adapter that can stream (`open`)
 * checks every row first and then hands the engine products read from disk while it writes;
 * a file that fails midway still rolls the whole ingest back.
 */
import type { Database, Queryable } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import { FileRejectedError, findAdapter } from './adapters/index.ts';
import type { InputFile, SourceAdapter } from './adapters/index.ts';
import { IngestError, ingestSnapshot, ingestWithin } from './engine.ts';
import type { IngestProgress, IngestReport } from './engine.ts';
import { StreamReadError } from './input.ts';
import { ShrinkRefusedError, skippedRefusal } from './shrink-guard.ts';
import type { GuardKind, ShrinkLimits } from './shrink-guard.ts';
import type { SnapshotInput, StreamedAdapterResult } from './input.ts';
import { countRows, outcomeOf } from './row-outcome.ts';
import { writeSupply } from './supply.ts';
import type { SupplyWriteReport } from './supply.ts';
import type { SupplyParse } from './adapters/supply-rows.ts';
import { INGEST_TABLES } from './engine.ts';
import type { IngestTable, TableCounts } from './engine.ts';
import { emptyCounts } from './plan.ts';
import type { RowCounts, RowProblem, SettledReport } from './row-outcome.ts';

export type { RowCounts } from './row-outcome.ts';

/** Refusal reasons are stored and printed; an adapter's message about a huge line is cut. */
const MAX_REASON_CHARS = 500;

export type ApplyResult =
  | { outcome: 'ok'; report: IngestReport; rows: RowCounts; problems: RowProblem[]; files: SettledReport[]; supply?: SupplyWriteReport }
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

/** The parsed files with their row outcomes settled, ready to ingest. */
interface Settled {
  snapshot: SnapshotInput;
  rows: RowCounts;
  problems: RowProblem[];
  files: SettledReport[];
}

/** A refusal met before anything was written (inside the ingest transaction it rolls it back). */
class Refusal extends Error {
  constructor(readonly result: Extract<ApplyResult, { outcome: 'refused' }>) {
    super(result.reason);
  }
}

/** The adapter's reading of the files; `catalogue` for files laid over what it holds. */
async function parseFiles(adapter: SourceAdapter, inputs: InputFile[], catalogue?: Queryable): Promise<StreamedAdapterResult> {
  const context = catalogue ? { catalogue } : {};
  try {
    return adapter.open ? await adapter.open(inputs, context) : await adapter.parse(inputs, context);
  } catch (err) {
    // Parsing writes nothing: whatever it throws, the file could not be read.
    throw new Refusal({ outcome: 'refused', reason: unreadable(err), rows: null, problems: [], files: [] });
  }
}

/** Row outcomes counted, and the refusals they call for (strict mode, too many malformed rows). */
function settle(parsed: StreamedAdapterResult, options: ApplyOptions): Settled {
  const { snapshot, problems } = parsed;
  const files = (parsed.files ?? []).map((f) => outcomeOf(f));
  const rows = countRows(files, problems, keptInArrays(snapshot));
  // A problem an adapter reported outside its row counts still refuses a strict ingest.
  const malformed = Math.max(rows.malformed, problems.length);
  if (options.strict && malformed > 0) {
    throw new Refusal({ outcome: 'refused', reason: `${malformed} malformed row(s) under strict mode`, rows, problems, files });
  }
  const skipped = options.shrink ? skippedRefusal(rows, options.shrink) : null;
  if (skipped) throw new Refusal({ outcome: 'refused', reason: skipped, rows, problems, files, guard: 'skipped' });
  return { snapshot, rows, problems, files };
}

/**
 * Parses `files` with adapter `adapterId` and ingests the result. A refusal (unknown adapter,
 * wrong file, malformed rows under `strict`, a snapshot the engine refuses) writes nothing and
 * is returned; any other failure (the database) is thrown, also with nothing written. Files
 * that update what the catalogue holds (`readsCatalogue`) are parsed inside the ingest
 * transaction, so what they read of the catalogue is what they write over.
 */
export async function parseAndIngest(db: Database, adapterId: string, inputs: InputFile[], options: ApplyOptions): Promise<ApplyResult> {
  const adapter = findAdapter(adapterId);
  if (!adapter) return { outcome: 'refused', reason: `no adapter "${adapterId}" is registered`, rows: null, problems: [], files: [] };
  if (adapter.supply) return parseAndWriteSupply(db, adapter.supply, inputs, options);
  const engine = {
    ...(options.log ? { log: options.log } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.chunkSize ? { chunkSize: options.chunkSize } : {}), ...(options.shrink ? { shrinkLimits: options.shrink } : {}),
  };
  const read: { settled?: Settled } = {};
  try {
    const report = adapter.readsCatalogue
      ? await ingestWithin(db, async (tx) => (read.settled = settle(await parseFiles(adapter, inputs, tx), options)).snapshot, engine)
      : await ingestSnapshot(db, (read.settled = settle(await parseFiles(adapter, inputs), options)).snapshot, engine);
    const { rows, problems, files } = read.settled!;
    return { outcome: 'ok', report, rows, problems, files };
  } catch (err) {
    if (err instanceof Refusal) return err.result;
    const { rows, problems, files } = read.settled ?? { rows: null, problems: [], files: [] };
    // A streamed file that failed midway: the transaction rolled back, nothing was written.
    if (err instanceof StreamReadError) return { outcome: 'refused', reason: unreadable(err.cause), rows, problems, files };
    if (err instanceof ShrinkRefusedError) return { outcome: 'refused', reason: err.message, rows, problems, files, guard: err.guard };
    if (!(err instanceof IngestError)) throw err;
    return { outcome: 'refused', reason: `snapshot rejected: ${err.message}`, rows, problems, files };
  }
}

/** The engine's report of a supply ingest: its source, no catalogue table touched, its change records. */
function supplyIngestReport(supply: SupplyWriteReport, durationMs: number): IngestReport {
  const tables = Object.fromEntries(INGEST_TABLES.map((t) => [t, emptyCounts()])) as Record<IngestTable, TableCounts>;
  return { sources: [supply.source], tables, changes: supply.changes, merged: { products: 0, packs: 0 }, durationMs };
}

/** A shortage publication: the same refusals as a register (unreadable, strict, too many skipped rows), then the supply writer. */
async function parseAndWriteSupply(db: Database, parse: (files: InputFile[]) => Promise<SupplyParse>, inputs: InputFile[], options: ApplyOptions): Promise<ApplyResult> {
  let parsed: SupplyParse;
  try {
    parsed = await parse(inputs);
  } catch (err) {
    return { outcome: 'refused', reason: unreadable(err), rows: null, problems: [], files: [] };
  }
  const files = parsed.files.map((f) => outcomeOf(f));
  const rows = countRows(files, parsed.problems, parsed.rows.length);
  if (options.strict && rows.malformed > 0) {
    return { outcome: 'refused', reason: `${rows.malformed} malformed row(s) under strict mode`, rows, problems: parsed.problems, files };
  }
  const skipped = options.shrink ? skippedRefusal(rows, options.shrink) : null;
  if (skipped) return { outcome: 'refused', reason: skipped, rows, problems: parsed.problems, files, guard: 'skipped' };
  const started = Date.now();
  const supply = await db.transaction((tx) => writeSupply(tx, parsed));
  return { outcome: 'ok', report: supplyIngestReport(supply, Date.now() - started), rows, problems: parsed.problems, files, supply };
}
