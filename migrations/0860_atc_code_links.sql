-- Derived ATC codes of products (docs/catalogue.md, "ATC codes derived from substances").
-- A register without ATC codes (BDPM) or without one on some rows (SL) still gets its
-- products into markets and DDD prices: the ingest engine links them by their substances'
-- names against WHO's level-5 names (workers/ingest/link-atc.ts) and records how.

-- WHO's level-5 names read as substances (resolvers/catalogue/atc-names.ts): one row per
-- part and key. A single substance has one slot; a combination one slot per component, a
-- class component (`beta-lactamase inhibitor`) one row per member key in its slot.
CREATE TABLE atc_names (
  code text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('single', 'combination')),
  slot smallint NOT NULL,
  -- Number of slots of the code's name.
  slots smallint NOT NULL,
  name_key text NOT NULL,
  -- The WHO name lower-cased to letters, digits and spaces: an exact register name equals it.
  plain text NOT NULL,
  qualified boolean NOT NULL,
  PRIMARY KEY (code, slot, name_key)
);
CREATE INDEX atc_names_key ON atc_names (name_key);

-- How a derived `atc_code` was reached (NULL when the register gave it, or none):
-- `signature` (register codes of products with the same substances), `inn_name`,
-- `inn_translated`, `inn_salt_folded` (WHO's level-5 name of the single substance),
-- `combination` (every component and the route match a combination code), `strength_route`
-- (a substance under several codes, decided by route and strength); with its confidence.
ALTER TABLE products ADD COLUMN atc_code_basis text
  CHECK (atc_code_basis IN ('signature', 'inn_name', 'inn_translated', 'inn_salt_folded', 'combination', 'strength_route'));
ALTER TABLE products ADD COLUMN atc_code_confidence numeric(3, 2);
UPDATE products SET atc_code_basis = 'signature', atc_code_confidence = 0.9 WHERE atc_code_linked;
ALTER TABLE products ADD CONSTRAINT products_atc_code_basis
  CHECK (atc_code_linked = (atc_code_basis IS NOT NULL) AND (atc_code_basis IS NULL) = (atc_code_confidence IS NULL));

-- ATC codes of a substance for reference resolution: its own or its identity's
-- (`linked_atc_codes`), and those of WHO's single-substance level-5 names that one of its
-- names, or of its moiety's, normalises to (all of them: acetylsalicylic acid has three, and
-- an interaction rule may name any).
CREATE FUNCTION substance_atc_codes(key text, own text[]) RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT ARRAY(SELECT DISTINCT c FROM (
    SELECT unnest(linked_atc_codes(key, own)) AS c
    UNION ALL
    SELECT a.code FROM substance_names n JOIN atc_names a ON a.name_key = n.name_key AND a.kind = 'single'
     WHERE n.unii = key OR n.unii = (SELECT s.moiety_unii FROM substances s WHERE s.unii = key)) x
   WHERE c IS NOT NULL ORDER BY c)
$$;
