/**
 * One sync of one claimed source: conditional downloads into a private temporary folder,
 * archives unpacked, the files parsed in full by the adapter, then one ingest transaction.
 * Every failure before the ingest commits leaves the catalogue exactly as it was; the
 * outcome says why (see SYNC_OUTCOMES), and validators are kept only after a success, so a
 * refused file is fetched again on the next attempt.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import type { SyncConfig } from '../../platform/config.ts';
import type { Database } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import type { InputFile } from '../ingest/adapters/index.ts';
import { fileInput } from '../ingest/adapters/line-stream.ts';
import type { IngestProgress } from '../ingest/engine.ts';
import { parseAndIngest } from '../ingest/apply.ts';
import type { RowCounts } from '../ingest/apply.ts';
import type { GuardKind } from '../ingest/shrink-guard.ts';
import { DownloadError, describeUrl, download } from './fetch.ts';
import type { Downloaded } from './fetch.ts';
import { downloadUrl } from '../../platform/sync-sources.ts';
import type { SyncDownload, SyncSourceDefinition } from '../../platform/sync-sources.ts';
import type { StoredValidators, SyncOutcome } from './state.ts';
import { ArchiveError, unpackZip } from './unpack.ts';
import type { UnpackBudget } from './unpack.ts';

/** What a sync reports while it runs: bytes as they arrive, then the engine's steps. */
export type SyncProgress =
  | { source: string; phase: 'download'; file: string; bytes: number }
  | { source: string; phase: 'ingest'; step: IngestProgress };

export interface SyncRunContext {
  db: Database;
  config: SyncConfig;
  log: Logger;
  dispatcher: Dispatcher;
  onProgress?: (p: SyncProgress) => void;
  /** Aborted when the worker stops: downloads end at once (an ingest already running completes). */
  stop?: AbortSignal;
  /** Accept a file the shrink guard would refuse (`drugref sync --allow-shrink`). */
  allowShrink?: boolean;
}

/** The result of one attempt, as recorded in sync_state and sync_attempts. */
export interface SyncResult {
  source: string;
  outcome: SyncOutcome;
  error: string | null;
  httpStatus: number | null;
  bytes: number;
  rows: RowCounts | null;
  changes: number | null;
  catalogueSource: string | null;
  validators: Record<string, StoredValidators> | null;
  /** Set by the runner once the attempt is recorded. */
  durationMs?: number;
}

/** The outcome of a file the shrink guard refused: its own, so `sync status`, metrics and logs show it. */
const GUARD_OUTCOME: Record<GuardKind, SyncOutcome> = { shrink: 'shrink_refused', skipped: 'skipped_refused' };

type Fetched = { download: SyncDownload; url: string; result: Downloaded };

function urlHash(url: string): string {
  return createHash('sha256').update(url).digest('hex').slice(0, 16);
}

/** Downloads every file; with `stored` validators a file may come back 304. */
async function fetchAll(ctx: SyncRunContext, def: SyncSourceDefinition, url: string, dir: string, stored: Record<string, StoredValidators> | null): Promise<Fetched[]> {
  const out: Fetched[] = [];
  for (const [i, d] of def.downloads.entries()) {
    const fileUrl = downloadUrl(url, d);
    const held = stored?.[d.file];
    const validators = held && held.urlHash === urlHash(fileUrl) ? held : null;
    let bytes = 0;
    const limits = { ...ctx.config, ...(ctx.stop ? { stop: ctx.stop } : {}) };
    const result = await download(fileUrl, join(dir, `${i}.download`), validators, limits, ctx.dispatcher, (n) => {
      bytes += n;
      ctx.onProgress?.({ source: def.id, phase: 'download', file: d.file, bytes });
    });
    if (result.status === 404 && !d.optional) throw new DownloadError('http_error', `${d.file}: the publisher answered 404`, 404);
    out.push({ download: d, url: fileUrl, result });
  }
  return out;
}

/** The adapter's input files: plain downloads as they are, zip archives unpacked. */
async function inputFiles(fetched: readonly Fetched[], budget: UnpackBudget, dir: string): Promise<InputFile[]> {
  const files: InputFile[] = [];
  for (const [i, { download: d, result }] of fetched.entries()) {
    if (!('path' in result)) continue;
    // Each archive's entries in a folder of their own, beside the downloads in the sync's private folder.
    if (d.unzip) files.push(...(await unpackZip(result.path, d.file, d.unzip, budget, join(dir, `${i}.unpacked`))));
    // Read from the download on disk: a streaming adapter never holds the file (line-stream.ts).
    else files.push(fileInput(result.path, d.file));
  }
  return files;
}

function validatorsOf(fetched: readonly Fetched[]): Record<string, StoredValidators> {
  const out: Record<string, StoredValidators> = {};
  for (const { download: d, url, result } of fetched) {
    if ('validators' in result) out[d.file] = { urlHash: urlHash(url), sha256: result.sha256, ...result.validators };
  }
  return out;
}

/** True when every file fetched in full has the bytes last ingested (a publisher that ignores conditional requests). */
function sameBytes(fetched: readonly Fetched[], stored: Record<string, StoredValidators>): boolean {
  const full = fetched.filter((f) => 'sha256' in f.result);
  return full.length > 0 && full.every((f) => {
    const held = stored[f.download.file];
    return 'sha256' in f.result && held?.sha256 === f.result.sha256 && held.urlHash === urlHash(f.url);
  });
}

function base(def: SyncSourceDefinition): SyncResult {
  return { source: def.id, outcome: 'failed', error: null, httpStatus: null, bytes: 0, rows: null, changes: null, catalogueSource: null, validators: null };
}

/** The last HTTP status seen: the one that explains the outcome. */
function lastStatus(fetched: readonly Fetched[]): number | null {
  return fetched.at(-1)?.result.status ?? null;
}

async function fetchAndIngest(ctx: SyncRunContext, def: SyncSourceDefinition, url: string, stored: Record<string, StoredValidators>, dir: string): Promise<SyncResult> {
  const result = base(def);
  let fetched = await fetchAll(ctx, def, url, dir, stored);
  result.httpStatus = lastStatus(fetched);
  if (fetched.every((f) => f.result.status === 304 || (f.result.status === 404 && f.download.optional))) {
    return { ...result, outcome: 'not_modified', httpStatus: 304 };
  }
  // Some files changed: the adapter needs every file, so the unchanged ones are fetched in full.
  if (fetched.some((f) => f.result.status === 304)) fetched = await fetchAll(ctx, def, url, dir, null);
  result.bytes = fetched.reduce((n, f) => n + f.result.bytes, 0);
  result.httpStatus = lastStatus(fetched);
  if (sameBytes(fetched, stored)) return { ...result, outcome: 'not_modified' };
  let files: InputFile[];
  try {
    files = await inputFiles(fetched, { used: 0, max: ctx.config.maxUnpackedBytes }, dir);
  } catch (err) {
    if (!(err instanceof ArchiveError)) throw err;
    return { ...result, outcome: err.tooLarge ? 'too_large' : 'refused', error: err.message };
  }
  const shrink = { ...ctx.config.shrink, maxDeletePercent: ctx.config.sources[def.id]?.maxDeletePercent ?? ctx.config.shrink.maxDeletePercent };
  const applied = await parseAndIngest(ctx.db, def.adapter, files, {
    strict: ctx.config.strict, log: ctx.log, shrink: ctx.allowShrink ? null : shrink,
    ...(ctx.onProgress ? { onProgress: (step: IngestProgress) => ctx.onProgress?.({ source: def.id, phase: 'ingest', step }) } : {}),
  });
  if (applied.outcome === 'refused') {
    const outcome = applied.guard ? GUARD_OUTCOME[applied.guard] : 'refused';
    return { ...result, outcome, error: applied.reason, rows: applied.rows };
  }
  return {
    ...result, outcome: 'ok', rows: applied.rows, changes: applied.report.changes,
    catalogueSource: applied.report.sources[0] ?? null, validators: validatorsOf(fetched),
  };
}

/**
 * Syncs one source from `url` (the configured location). Never throws for a publisher's or a
 * file's fault: those are outcomes. A database failure is the `failed` outcome, equally with
 * nothing written (the ingest transaction rolled back).
 */
export async function syncOnce(ctx: SyncRunContext, def: SyncSourceDefinition, url: string, stored: Record<string, StoredValidators>): Promise<SyncResult> {
  const dir = await mkdtemp(join(tmpdir(), `drugref-sync-${def.id}-`));
  try {
    return await fetchAndIngest(ctx, def, url, stored, dir);
  } catch (err) {
    if (err instanceof DownloadError) return { ...base(def), outcome: err.outcome, error: err.message, httpStatus: err.httpStatus };
    ctx.log.error({ err, source: def.id, host: describeUrl(url) }, 'sync failed');
    return { ...base(def), outcome: 'failed', error: `internal error: ${(err as Error).message}`.slice(0, 500) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
