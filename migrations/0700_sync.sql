-- Register sync (workers/sync/, docs/sync.md): one row per configured source with its
-- schedule, lease and the outcome of the last attempt, plus a log of every attempt.
-- The catalogue itself is only ever written by the ingest engine; these tables say when and
-- how the worker last looked, which is what `stale` / `never_run` and the metrics read.
CREATE TABLE sync_state (
  source text PRIMARY KEY,
  adapter text NOT NULL,
  -- The `sources.id` the adapter writes (learned from the first ingest); joins freshness.
  catalogue_source text NOT NULL,
  name text NOT NULL,
  country text,
  enabled boolean NOT NULL DEFAULT true,
  interval_hours integer NOT NULL,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- Lease: a worker owns the source until lease_until; a crashed worker's lease lapses.
  lease_owner text,
  lease_until timestamptz,
  last_attempt_at timestamptz,
  last_outcome text CHECK (last_outcome IN ('ok', 'not_modified', 'refused', 'http_error', 'timeout', 'too_large', 'network_error', 'failed')),
  last_error text,
  last_http_status integer,
  last_bytes bigint,
  -- Rows and change records of the last file parsed and ingested (a 304 or a failed download keeps them).
  rows_read integer,
  rows_kept integer,
  rows_skipped integer,
  last_changes integer,
  last_duration_ms integer,
  consecutive_failures integer NOT NULL DEFAULT 0,
  total_failures integer NOT NULL DEFAULT 0,
  -- Last time the stored data was confirmed to be the publisher's current file (ingest or 304).
  last_success_at timestamptz,
  last_ingest_at timestamptz,
  -- Per download file: {"<file>": {"url_hash": "...", "etag": "...", "last_modified": "..."}},
  -- stored only after a successful ingest, so a refused file is fetched again next time.
  validators jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX sync_state_due ON sync_state (next_attempt_at) WHERE enabled;
CREATE INDEX sync_state_catalogue_source ON sync_state (catalogue_source);

CREATE TABLE sync_attempts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  source text NOT NULL REFERENCES sync_state (source) ON DELETE CASCADE,
  worker text NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  outcome text NOT NULL,
  http_status integer,
  bytes bigint,
  -- Rows and change records of the last file parsed and ingested (a 304 or a failed download keeps them).
  rows_read integer,
  rows_kept integer,
  rows_skipped integer,
  changes integer,
  duration_ms integer NOT NULL,
  error text
);
CREATE INDEX sync_attempts_source ON sync_attempts (source, started_at);
