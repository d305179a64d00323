-- Identifiers by pack. The ingest engine writes a register chunk by chunk
-- (workers/ingest/write-records.ts) and replaces the identifiers of each chunk's updated packs,
-- and deleting a pack cascades to its identifiers: without this index each of those statements
-- scanned every identifier of the catalogue, once per chunk or per deleted pack.
CREATE INDEX identifiers_pack ON identifiers (pack_id) WHERE pack_id IS NOT NULL;
