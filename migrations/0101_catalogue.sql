-- The catalogue: substances, classes, products (the drug record), packs, prices,
-- identifiers of every code system, Swiss monographs and recalls. Every row belongs to
-- the source that wrote it, so the ingest engine can diff one source's snapshot against
-- exactly its own rows. `record` keeps the normalised entry as ingested: it is the
-- before/after image of change records and the basis of the content hash.

CREATE TABLE classes (
  system text NOT NULL CHECK (system IN ('epc', 'moa', 'pe', 'cs', 'mesh_pa')),
  code text NOT NULL,
  label text NOT NULL,
  source text NOT NULL REFERENCES sources (id),
  PRIMARY KEY (system, code)
);
CREATE INDEX classes_label_trgm ON classes USING gin (lower(label) gin_trgm_ops);

CREATE TABLE substances (
  -- A UNII, or a provisional key (`name:…`, `bdpm:…`) where the register has no UNII.
  unii text PRIMARY KEY,
  name text NOT NULL,
  names jsonb NOT NULL DEFAULT '{}',
  provisional boolean NOT NULL DEFAULT false,
  -- Salts and esters fold to their active moiety; a moiety points to itself.
  moiety_unii text NOT NULL,
  formula text,
  smiles text,
  inchikey text,
  rxcui text,
  atc_codes text[] NOT NULL DEFAULT '{}',
  source text NOT NULL REFERENCES sources (id),
  record jsonb NOT NULL,
  content_hash text NOT NULL
);
CREATE INDEX substances_moiety ON substances (moiety_unii);
CREATE INDEX substances_name_trgm ON substances USING gin (lower(name) gin_trgm_ops);
CREATE INDEX substances_atc ON substances USING gin (atc_codes);

CREATE TABLE substance_classes (
  unii text NOT NULL REFERENCES substances (unii) ON DELETE CASCADE,
  system text NOT NULL,
  code text NOT NULL,
  PRIMARY KEY (unii, system, code),
  FOREIGN KEY (system, code) REFERENCES classes (system, code) ON DELETE CASCADE
);
CREATE INDEX substance_classes_class ON substance_classes (system, code);

CREATE TABLE products (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  source text NOT NULL REFERENCES sources (id),
  natural_key text NOT NULL,
  country text NOT NULL,
  product_name text NOT NULL,
  brand text,
  generic boolean,
  atc_code text,
  dose_form text,
  route text,
  holder text,
  marketing_status text NOT NULL DEFAULT 'active' CHECK (marketing_status IN ('active', 'withdrawn')),
  authorised_on date,
  reimbursement_rate_percent numeric,
  -- Sorted active-moiety UNIIs ("same substance") and moieties with strengths, dose form
  -- and route ("same medicine"): equivalents become index lookups.
  substance_signature text,
  medicine_signature text,
  record jsonb NOT NULL,
  content_hash text NOT NULL,
  UNIQUE (source, natural_key)
);
CREATE INDEX products_name_trgm ON products USING gin (lower(product_name) gin_trgm_ops);
CREATE INDEX products_atc ON products (atc_code text_pattern_ops);
CREATE INDEX products_country_name ON products (country, lower(product_name));
CREATE INDEX products_substance_signature ON products (substance_signature);
CREATE INDEX products_medicine_signature ON products (medicine_signature);

CREATE TABLE product_ingredients (
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  position smallint NOT NULL,
  unii text NOT NULL,
  strength_value numeric,
  strength_unit text,
  PRIMARY KEY (product_id, position)
);
CREATE INDEX product_ingredients_unii ON product_ingredients (unii);

CREATE TABLE product_classes (
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  system text NOT NULL,
  code text NOT NULL,
  PRIMARY KEY (product_id, system, code)
);

CREATE TABLE packs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  source text NOT NULL REFERENCES sources (id),
  natural_key text NOT NULL,
  description text NOT NULL,
  units numeric,
  unit text,
  marketing_status text NOT NULL DEFAULT 'active' CHECK (marketing_status IN ('active', 'withdrawn')),
  -- Swiss Spezialitätenliste entry (listed, capped price, coinsurance, limitation).
  sl jsonb,
  record jsonb NOT NULL,
  content_hash text NOT NULL,
  UNIQUE (source, natural_key)
);
CREATE INDEX packs_product ON packs (product_id);

CREATE TABLE pack_prices (
  pack_id uuid NOT NULL REFERENCES packs (id) ON DELETE CASCADE,
  kind text NOT NULL,
  amount numeric NOT NULL,
  currency text NOT NULL,
  valid_from date,
  PRIMARY KEY (pack_id, kind)
);

-- One table serves every code system: exact lookups on (system, code).
CREATE TABLE identifiers (
  system text NOT NULL,
  code text NOT NULL,
  drug_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  pack_id uuid REFERENCES packs (id) ON DELETE CASCADE
);
CREATE INDEX identifiers_lookup ON identifiers (system, code);
CREATE INDEX identifiers_drug ON identifiers (drug_id);

CREATE TABLE monographs (
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  lang text NOT NULL,
  title text NOT NULL,
  sections jsonb NOT NULL,
  PRIMARY KEY (product_id, lang)
);

CREATE TABLE recalls (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  source text NOT NULL REFERENCES sources (id),
  natural_key text NOT NULL,
  product_id uuid REFERENCES products (id) ON DELETE SET NULL,
  country text NOT NULL,
  published_on date NOT NULL,
  reason text NOT NULL,
  level text,
  pack_keys text[] NOT NULL DEFAULT '{}',
  record jsonb NOT NULL,
  content_hash text NOT NULL,
  UNIQUE (source, natural_key)
);
