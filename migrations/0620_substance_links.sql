-- One substance identity across registers (docs/catalogue.md, "Substance identity").
-- Registers key substances their own way (UNII, `name:…`, `bdpm:…`); the ingest engine
-- links every key to one canonical identity by normalised INN name
-- (resolvers/catalogue/substance-names.ts, workers/ingest/write-links.ts), and product
-- signatures use that identity, so one moiety is one signature in every country.

-- Normalised names of every substance key: its preferred name and every name of `names`.
CREATE TABLE substance_names (
  unii text NOT NULL REFERENCES substances (unii) ON DELETE CASCADE,
  -- Moiety key: salt, ester and hydrate words removed, endings folded (`metformin`).
  name_key text NOT NULL,
  -- The key with its salt words in canonical English (`metformin hydrochloride`).
  full_key text NOT NULL,
  salt_folded boolean NOT NULL,
  curated boolean NOT NULL,
  -- The register's name that produced it.
  raw text NOT NULL,
  PRIMARY KEY (unii, full_key)
);
CREATE INDEX substance_names_key ON substance_names (name_key);
CREATE INDEX substance_names_full ON substance_names (full_key);

-- The canonical identity of every substance key. `identity` is a moiety UNII or `inn:<key>`;
-- NULL (with `candidates`) when the names point to several UNIIs: never linked on a guess.
CREATE TABLE substance_links (
  unii text PRIMARY KEY REFERENCES substances (unii) ON DELETE CASCADE,
  identity text,
  basis text CHECK (basis IN ('unii', 'inn_name', 'salt_folded', 'curated')),
  confidence numeric(3, 2),
  name_key text,
  -- The register names that produced the link.
  names text[] NOT NULL DEFAULT '{}',
  -- UNII substances whose names matched (their change relinks this key).
  evidence text[] NOT NULL DEFAULT '{}',
  -- Ambiguous: the distinct moiety UNIIs the names point to.
  candidates text[] NOT NULL DEFAULT '{}',
  CHECK ((identity IS NULL) = (basis IS NULL) AND (identity IS NULL) = (confidence IS NULL))
);
CREATE INDEX substance_links_identity ON substance_links (identity);
CREATE INDEX substance_links_evidence ON substance_links USING gin (evidence);
CREATE INDEX substance_links_candidates ON substance_links USING gin (candidates);

-- True when `atc_code` was not given by the product's register but taken from its linked
-- substances (products of other registers with the same signature, substance ATC codes).
ALTER TABLE products ADD COLUMN atc_code_linked boolean NOT NULL DEFAULT false;

-- ATC codes of a substance: its own, or else those of its linked identity (every substance
-- of the identity, and register ATC codes of single-substance products of that signature).
CREATE FUNCTION linked_atc_codes(key text, own text[]) RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN cardinality(own) > 0 THEN own ELSE ARRAY(
    SELECT DISTINCT c FROM (
      SELECT unnest(s.atc_codes) AS c FROM substance_links l
        JOIN substance_links o ON o.identity = l.identity JOIN substances s ON s.unii = o.unii
       WHERE l.unii = key
      UNION ALL
      SELECT p.atc_code FROM substance_links l JOIN products p ON p.substance_signature = l.identity
       WHERE l.unii = key AND NOT p.atc_code_linked AND length(p.atc_code) = 7) AS x
     WHERE c IS NOT NULL ORDER BY c) END
$$;
