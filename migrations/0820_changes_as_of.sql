-- Identifier status as of a date (GET /v1/drugs/{id}, /v1/drugs/lookup and
-- /v1/packs/{system}/{code} with `as_of`): the read side reconstructs a record and its
-- packs' status from the change log, whose `after` images are the full normalised rows
-- (workers/ingest/images.ts). These indexes make each step a lookup of one record's own
-- history, never a scan of the log (resolvers/catalogue/change-history.ts).

-- Every version of one record, oldest first: (table, {source, key}) then time.
CREATE INDEX changes_record_history ON changes (table_name, natural_key, occurred_at);
-- The versions of a product, and the packs and recalls that belonged to it, by product id.
CREATE INDEX changes_drug_history ON changes (drug_id, table_name, occurred_at) WHERE drug_id IS NOT NULL;
-- Which records ever carried a code: containment on the images' identifier lists
-- (`after -> 'identifiers' @> '[{"system": "gtin", "code": "…"}]'`), deleted codes included.
CREATE INDEX changes_identifiers ON changes USING gin ((after -> 'identifiers') jsonb_path_ops);
-- Where each register's history starts (its first change).
CREATE INDEX changes_source_history ON changes (source, occurred_at);
