-- The shrink guard's outcomes (workers/ingest/shrink-guard.ts): a file that would delete more
-- than a share of its source, or that had more than a share of its rows skipped, is refused
-- with an outcome of its own, so `drugref sync status`, metrics and logs tell it apart.
ALTER TABLE sync_state DROP CONSTRAINT sync_state_last_outcome_check;
ALTER TABLE sync_state ADD CONSTRAINT sync_state_last_outcome_check CHECK (last_outcome IN (
  'ok', 'not_modified', 'refused', 'shrink_refused', 'skipped_refused', 'http_error', 'timeout', 'too_large', 'network_error', 'failed'));
