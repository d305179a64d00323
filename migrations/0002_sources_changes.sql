-- Register sources and the cross-source change log. The ingest engine writes both; the
-- change feed, webhooks and every `_meta.sources` block read them.
CREATE TABLE sources (
  id text PRIMARY KEY,
  name text NOT NULL,
  country text,
  refresh_interval_hours integer NOT NULL,
  licence text,
  url text,
  demo boolean NOT NULL DEFAULT false,
  last_synced_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE changes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  source text NOT NULL REFERENCES sources (id),
  table_name text NOT NULL,
  natural_key jsonb NOT NULL,
  drug_id uuid,
  change_type text NOT NULL CHECK (change_type IN ('insert', 'update', 'delete', 'recall')),
  before jsonb,
  after jsonb,
  occurred_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
-- Keyset pagination of the feed and of webhook windows.
CREATE INDEX changes_keyset ON changes (occurred_at, id);
