/**
 * GET /v1/changes/export: the whole change feed from `since` or a cursor up to the
 * visibility horizon as NDJSON, read through a server-side cursor so memory holds one
 * batch however long the log. One change record per line, exactly as /v1/changes answers
 * it, then one closing line `{"_end":{"cursor":…,"count":…,"horizon":…}}` whose cursor
 * continues right after the last record (docs/webhooks.md "Bulk export").
 */
import { ApiError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { bounds, checkArgs } from './feed.ts';
import { purposeKey, rootKey } from './keyring.ts';
import { CHANGE_COLUMNS, comparePositions, NIL_UUID, toRecord, toWire } from './records.ts';
import type { ChangeRow, Position } from './records.ts';

/** Rows per FETCH: a few hundred kilobytes of typical records in memory at once. */
export const CHANGES_EXPORT_BATCH = 500;

export interface ChangesExportArgs {
  since?: string | null;
  cursor?: string | null;
}

/** Checks the arguments (422 before the first byte) and returns the NDJSON chunks. */
export async function changesExport(ctx: RequestContext, args: ChangesExportArgs): Promise<AsyncGenerator<string, void, undefined>> {
  if (!ctx.principal) throw new ApiError('unauthorized');
  const { since, cursor } = checkArgs({ since: args.since ?? null, cursor: args.cursor ?? null });
  const key = purposeKey(await rootKey(ctx.config, ctx.db), 'changes-cursor');
  const decoded = cursor !== null ? decodeCursor(key, cursor) : null;
  // The horizon is read before the cursor opens: every change below it was committed
  // before the export's snapshot was taken, so the snapshot holds all of them.
  const { horizon, since: sinceIso } = await bounds(ctx, since);
  const start: Position = decoded ?? { occurredAt: sinceIso ?? '-infinity', id: NIL_UUID };
  return lines(ctx, key, start, horizon);
}

async function* lines(ctx: RequestContext, key: Buffer, start: Position, horizon: string): AsyncGenerator<string, void, undefined> {
  let reached: Position = start;
  let count = 0;
  const resume = () => {
    // Like a short page of /v1/changes: having read everything below the horizon, the
    // next read may start at the horizon (never past a change not yet committed).
    const atHorizon: Position = { occurredAt: horizon, id: NIL_UUID };
    return encodeCursor(key, comparePositions(reached, atHorizon) > 0 ? reached : atHorizon);
  };
  const rows = ctx.db.stream<ChangeRow>(
    `SELECT ${CHANGE_COLUMNS} FROM changes
      WHERE (occurred_at, id) > ($1::timestamptz, $2::uuid) AND occurred_at < $3::timestamptz
      ORDER BY occurred_at, id`,
    [start.occurredAt, start.id, horizon],
    { batchSize: CHANGES_EXPORT_BATCH },
  );
  try {
    for await (const batch of rows) {
      let chunk = '';
      for (const row of batch.rows) {
        const record = toRecord(row);
        chunk += `${JSON.stringify(toWire(record))}\n`;
        reached = { occurredAt: record.occurredAt, id: record.id };
        count++;
      }
      yield chunk;
    }
  } catch (err) {
    if (count === 0) throw err; // nothing sent yet: the caller answers a JSON error
    ctx.log.error({ err }, 'change export failed part way');
    // Records already sent stay valid: the cursor resumes right after the last of them.
    yield `${JSON.stringify({ _error: { error: 'internal_error', message: 'The export failed part way; resume from cursor.', cursor: encodeCursor(key, reached), count } })}\n`;
    return;
  }
  yield `${JSON.stringify({ _end: { cursor: resume(), count, horizon } })}\n`;
}
