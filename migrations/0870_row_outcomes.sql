-- Rows of an ingest are kept, malformed or excluded for a named reason (workers/ingest/row-outcome.ts):
-- `skipped` mixed rows the publisher left out on purpose (a substance without a DDD) with
-- rows that could not be read, and only the second kind says anything about a file's health.
ALTER TABLE sync_state RENAME COLUMN rows_skipped TO rows_malformed;
ALTER TABLE sync_state ADD COLUMN rows_excluded integer;
ALTER TABLE sync_attempts RENAME COLUMN rows_skipped TO rows_malformed;
ALTER TABLE sync_attempts ADD COLUMN rows_excluded integer;
