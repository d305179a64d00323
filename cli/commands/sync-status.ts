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
  if (row.rows.read !== null) parts.push(`rows ${row.rows.read}/${row.rows.kept}/${row.rows.malformed}/${row.rows.excluded ?? 0} read/kept/malformed/excluded`);
  if (row.lastChanges !== null) parts.push(`${row.lastChanges} changes`);
  if (row.lastDurationMs !== null) parts.push(`${(row.lastDurationMs / 1000).toFixed(1)} s`);
  return parts.join(', ');
}

/** The figures of the last file ingested, which a later failed attempt does not replace. */
function lastIngest(row: SyncStatusRow): string {
  const ingest = row.lastIngest;
  if (!ingest) return '';
  const parts = [ingest.rows ? `rows ${ingest.rows.read}/${ingest.rows.kept}/${ingest.rows.malformed}/${ingest.rows.excluded}` : null, ingest.changes === null ? null : `${ingest.changes} changes`];
  const shown = parts.filter(Boolean).join(', ');
  return shown ? ` (last ingest: ${shown})` : '';
}

function nextAttempt(row: SyncStatusRow): string {
  if (row.leasedBy) return `running now (${row.leasedBy})`;
  // The lease lapsed with its owner still named: that worker died; the next claim records it as interrupted.
  if (row.deadOwner) return `${iso(row.nextAttemptAt)}; worker ${row.deadOwner} stopped answering mid-attempt (lease lapsed), the next worker takes over`;
  return iso(row.nextAttemptAt);
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
    lines.push(`  last success  ${iso(row.lastSuccessAt)}${lastIngest(row)}; failures ${row.consecutiveFailures} in a row, ${row.totalFailures} in all`);
    lines.push(`  next attempt  ${nextAttempt(row)}`);
  }
  return lines;
}
