/**
 * What `drugref sync status` prints: one block per defined source with its schedule (or why it
 * is not scheduled), the last attempt and its outcome, the next attempt and the freshness the
 * API reports for it (ok, stale, never_run).
 */
import type { SyncConfig } from '../../platform/config.ts';
import type { Queryable } from '../../platform/db.ts';
import { schemaStateOf } from '../../resolvers/sources/status.ts';
import { SYNC_SOURCES } from '../../platform/sync-sources.ts';
import { readSyncStatus } from '../../workers/sync/state.ts';
import type { SyncStatusRow } from '../../workers/sync/state.ts';
import { inactiveReason } from '../../workers/sync/worker.ts';

const iso = (d: Date | null): string => (d ? d.toISOString().replace(/\.\d{3}Z$/, 'Z') : '—');

function lastAttempt(row: SyncStatusRow): string {
  if (!row.lastAttemptAt) return 'never attempted';
  const parts = [`${iso(row.lastAttemptAt)} ${row.lastOutcome ?? ''}`];
  if (row.lastHttpStatus !== null) parts.push(`HTTP ${row.lastHttpStatus}`);
  if (row.lastBytes) parts.push(`${row.lastBytes} bytes`);
  if (row.rows.read !== null) parts.push(`rows ${row.rows.read}/${row.rows.kept}/${row.rows.skipped} read/kept/skipped`);
  if (row.lastChanges !== null) parts.push(`${row.lastChanges} changes`);
  if (row.lastDurationMs !== null) parts.push(`${(row.lastDurationMs / 1000).toFixed(1)} s`);
  return parts.join(', ');
}

/** The status lines for every defined source, in definition order. */
export async function statusLines(db: Queryable, config: SyncConfig, now: Date): Promise<string[]> {
  const rows = new Map((await readSyncStatus(db)).map((r) => [r.source, r]));
  const lines = [`Scheduled sync: ${config.enabled ? `on (every ${config.tickMs / 1000} s the worker looks for due sources)` : 'off (set SYNC_ENABLED=true)'}`];
  for (const def of SYNC_SOURCES) {
    const row = rows.get(def.id);
    const reason = inactiveReason(config, def);
    const freshness = schemaStateOf(row?.confirmedAt ?? null, row?.refreshIntervalHours ?? config.sources[def.id]!.intervalHours, now);
    lines.push(`${def.id} (${def.adapter}): ${freshness}`);
    lines.push(`  schedule      ${reason ? `not scheduled: ${reason}` : `every ${config.sources[def.id]!.intervalHours} h`}`);
    if (!row) continue;
    lines.push(`  last attempt  ${lastAttempt(row)}`);
    if (row.lastError) lines.push(`  last error    ${row.lastError}`);
    lines.push(`  last success  ${iso(row.lastSuccessAt)}; failures ${row.consecutiveFailures} in a row, ${row.totalFailures} in all`);
    lines.push(`  next attempt  ${row.leasedBy ? `running now (${row.leasedBy})` : iso(row.nextAttemptAt)}`);
  }
  return lines;
}
