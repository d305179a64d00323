-- The request hot path (docs/architecture.md, "Hot path").

-- Sources metadata (`_meta.sources`) is cached in each process and dropped when it may
-- have changed: a NOTIFY on `drugref_sources`, delivered when the writing transaction
-- commits (an ingest stamping `last_synced_at`, the sync worker confirming a source,
-- a source configured or disabled). Every process LISTENs (platform/db.ts `listen`).
CREATE FUNCTION notify_sources_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('drugref_sources', '');
  RETURN NULL;
END $$;

CREATE TRIGGER sources_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sources
  FOR EACH STATEMENT EXECUTE FUNCTION notify_sources_changed();

-- Only the columns `_meta.sources` reads: the worker's lease updates stay silent.
CREATE TRIGGER sync_state_changed AFTER INSERT OR DELETE OR TRUNCATE
  OR UPDATE OF catalogue_source, name, country, enabled, interval_hours, last_success_at ON sync_state
  FOR EACH STATEMENT EXECUTE FUNCTION notify_sources_changed();

-- A statement that calls this is planned without parallel workers (one PARALLEL UNSAFE
-- function anywhere in a statement rules them out). The typeahead's gated tiers usually
-- never run, yet a parallel plan starts its workers anyway: 10–20 ms of start-up on a busy
-- server for a statement that otherwise takes about one.
CREATE FUNCTION plan_without_workers() RETURNS boolean LANGUAGE sql STABLE PARALLEL UNSAFE AS 'SELECT true';

-- The typeahead's order is the lower-cased name in byte order (COLLATE "C", whatever the
-- database's collation), so one b-tree serves both the prefix match (a range of the key)
-- and the order: the first `limit` names starting with `ibu` come straight off the index,
-- without reading, let alone sorting, the thousands of others (resolvers/catalogue/search.ts).
-- Partial on `searchable`, the filter of every name-ordered list; id completes the order.
CREATE INDEX products_search_name ON products (country, (lower(product_name) COLLATE "C"), id) WHERE searchable;
-- The same for country=ALL, which has no country to lead with.
CREATE INDEX products_search_name_all ON products ((lower(product_name) COLLATE "C"), id) WHERE searchable;
