-- DDDs get an owner of their own. WHO publishes the ATC code list and the DDD table as two
-- files, which may be loaded in either order and re-loaded one without the other: a DDD can
-- therefore arrive before its node (so the foreign key to atc_nodes goes), and the engine
-- must know which source's DDD rows a DDD table replaces without joining to the node.
-- NULL `source` (rows written before this migration, or by hand) means "the node's source".
ALTER TABLE atc_ddd DROP CONSTRAINT IF EXISTS atc_ddd_code_fkey;
ALTER TABLE atc_ddd ADD COLUMN source text REFERENCES sources (id);
UPDATE atc_ddd d SET source = n.source FROM atc_nodes n WHERE n.code = d.code;
CREATE INDEX atc_ddd_source ON atc_ddd (source);
