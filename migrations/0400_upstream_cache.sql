-- Response cache of the enrichment upstreams (and of the curated local sources, which are
-- served through the same cache). One row per source and normalised request; a row older
-- than the source's TTL is refreshed, and kept to be served as `stale` when the refresh fails.
CREATE TABLE upstream_cache (
  source text NOT NULL,
  cache_key text NOT NULL,
  -- The upstream's HTTP status: 2xx, or 404 (a definite "nothing", cached like an answer).
  status smallint NOT NULL,
  body jsonb,
  fetched_at timestamptz NOT NULL,
  PRIMARY KEY (source, cache_key)
);
