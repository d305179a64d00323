/**
 * `drugref sync [source...]` downloads and ingests registers now (every active source when
 * none is named), through the same runner, leases and records as the scheduled worker; a
 * progress bar is drawn on a terminal. `drugref sync status` prints each source's schedule,
 * last attempt, outcome and freshness. Exit codes: 0 all synced or unchanged, 1 any attempt
 * failed or was refused (nothing written for it), 2 usage.
 */
import cliProgress from 'cli-progress';
import { pino } from 'pino';
import { loadConfig } from '../../platform/config.ts';
import { boundHeapGrowth } from '../../platform/heap-growth.ts';
import type { Config } from '../../platform/config.ts';
import { loggerOptions } from '../../platform/logger.ts';
import { SUCCESS_OUTCOMES } from '../../workers/sync/state.ts';
import { SYNC_SOURCES, findSyncSource } from '../../platform/sync-sources.ts';
import { createSyncRunner } from '../../workers/sync/worker.ts';
import type { SkippedSource } from '../../workers/sync/worker.ts';
import type { SyncProgress, SyncResult } from '../../workers/sync/run.ts';
import { openConfiguredDatabase } from '../database.ts';
import { statusLines } from './sync-status.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

/** `12.3 MB`; registers range from kilobytes to gigabytes. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} kB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

/** One line per attempt: outcome, HTTP status, bytes, rows, changes, or the reason it was skipped. */
export function formatResult(r: SyncResult | SkippedSource): string {
  if (r.outcome === 'skipped' || r.outcome === 'busy') return `${r.source.padEnd(16)} ${r.outcome}: ${(r as SkippedSource).reason}`;
  const s = r as SyncResult;
  const parts = [s.outcome, s.httpStatus === null ? '' : `HTTP ${s.httpStatus}`, s.bytes ? formatBytes(s.bytes) : ''];
  if (s.rows) parts.push(`rows ${s.rows.read} read, ${s.rows.kept} kept, ${s.rows.malformed} malformed, ${s.rows.excluded} excluded`);
  if (s.changes !== null) parts.push(`${s.changes} change records`);
  if (s.durationMs !== undefined) parts.push(`${(s.durationMs / 1000).toFixed(1)} s`);
  if (s.error) parts.push(`— ${s.error}${s.outcome === 'ok' ? '' : ' (nothing written)'}`);
  return `${s.source.padEnd(16)} ${parts.filter(Boolean).join('  ')}`;
}

/** A bar per running source on a TTY: bytes while downloading, engine steps while ingesting. */
function progress(stream: NodeJS.WriteStream = process.stdout): { onProgress?: (p: SyncProgress) => void; stop(): void } {
  if (!stream.isTTY) return { stop: () => undefined };
  const bar = new cliProgress.SingleBar({ stream, format: '{source} [{bar}] {detail}', hideCursor: true, clearOnComplete: true }, cliProgress.Presets.shades_classic);
  let current: string | null = null;
  return {
    onProgress(p) {
      if (current !== p.source) {
        if (current) bar.stop();
        bar.start(1, 0, { source: p.source, detail: '' });
        current = p.source;
      }
      if (p.phase === 'download') bar.update(0, { detail: `${p.file}: ${formatBytes(p.bytes)} downloaded` });
      else {
        bar.setTotal(p.step.total);
        bar.update(p.step.done, { detail: `ingesting: ${p.step.step}` });
      }
    },
    stop: () => {
      if (current) bar.stop();
      current = null;
    },
  };
}

async function runSync(config: Config, ids: string[], allowShrink: boolean): Promise<number> {
  const unknown = ids.filter((id) => !findSyncSource(id));
  if (unknown.length) {
    err(`drugref sync: unknown source(s) ${unknown.join(', ')}; known: ${SYNC_SOURCES.map((s) => s.id).join(', ')}`);
    return 2;
  }
  const db = await openConfiguredDatabase(config);
  const bar = progress();
  const runner = createSyncRunner({ db, config, log: pino(loggerOptions(config.logLevel === 'info' ? 'warn' : config.logLevel)) }, {
    allowShrink, ...(bar.onProgress ? { onProgress: bar.onProgress } : {}),
  });
  try {
    const results = await runner.runNow(ids.length ? ids : undefined);
    bar.stop();
    if (!results.length) out('No source is active: configure a URL or switch one on (docs/sync.md).');
    results.forEach((r) => out(formatResult(r)));
    const failed = results.some((r) => r.outcome !== 'skipped' && r.outcome !== 'busy' && !SUCCESS_OUTCOMES.has(r.outcome));
    return failed ? 1 : 0;
  } finally {
    bar.stop();
    await runner.close();
    await db.close();
  }
}

async function showStatus(config: Config): Promise<number> {
  const db = await openConfiguredDatabase(config);
  try {
    (await statusLines(db, config.sync, new Date())).forEach(out);
    return 0;
  } finally {
    await db.close();
  }
}

/** `sync [source...] [--allow-shrink]`: exit 2 naming any unknown source. */
export function runSyncCommand(ids: string[], options: { allowShrink?: boolean } = {}): Promise<number> {
  const config = loadConfig();
  boundHeapGrowth(config.sync.heapGrowthPercent);
  return runSync(config, ids, options.allowShrink === true);
}

/** `sync status`. */
export function showStatusCommand(): Promise<number> {
  return showStatus(loadConfig());
}
