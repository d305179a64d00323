-- Supply status of packs as national shortage publications state it (docs/supply.md). One row
-- per publication and pack code: the code is the identifier the publisher names the pack by
-- (at_pzn, cima_codigo, ndc11), or an authorisation number (at_zulassungsnummer, eu_number) where
-- it names no pack. Rows join the catalogue through `identifiers` at read time, so a pack
-- ingested after its shortage report still shows it, and a register re-ingest keeps it.
CREATE TABLE pack_supply (
  source text NOT NULL REFERENCES sources (id),
  system text NOT NULL,
  code text NOT NULL,
  country text NOT NULL,
  status text NOT NULL CHECK (status IN ('available', 'limited', 'unavailable', 'discontinued')),
  reason text,
  since date,
  expected_until date,
  -- The publisher's own fields kept with the row (name, raw status, authorisation number ...).
  record jsonb NOT NULL,
  content_hash text NOT NULL,
  -- When the publication was last read, whether or not this row changed.
  fetched_at timestamptz NOT NULL,
  PRIMARY KEY (source, system, code)
);
-- The catalogue's join: identifiers (system, code) → supply.
CREATE INDEX pack_supply_code ON pack_supply (system, code);

-- Worse is higher (vocabulary/supply.ts): a pack with reports from several publications shows the worst.
CREATE FUNCTION supply_severity(status text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT CASE status WHEN 'available' THEN 0 WHEN 'limited' THEN 1 WHEN 'unavailable' THEN 2 WHEN 'discontinued' THEN 3 END
$$;
