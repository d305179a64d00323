-- Sync outcomes of their own (workers/sync/state.ts):
-- `shrink_refused` / `skipped_refused`: the shrink guard (workers/ingest/shrink-guard.ts)
-- refused a file that would delete more than a share of its source, or that had more than a
-- share of its rows skipped, so `drugref sync status`, metrics and logs tell it apart.
-- `interrupted`: the attempt of a worker that died mid-way (kill -9), recorded by the worker
-- that takes the source over once the lease lapsed; `attempt_started_at` dates it.
ALTER TABLE sync_state DROP CONSTRAINT sync_state_last_outcome_check;
ALTER TABLE sync_state ADD CONSTRAINT sync_state_last_outcome_check CHECK (last_outcome IN (
  'ok', 'not_modified', 'refused', 'shrink_refused', 'skipped_refused', 'http_error', 'timeout', 'too_large', 'network_error', 'failed',
  'interrupted'));
ALTER TABLE sync_state ADD COLUMN attempt_started_at timestamptz;
