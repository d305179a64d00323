-- The service's own reviewed interaction table, keyed by ATC pairs. `a_code`/`b_code` are
-- ATC codes of any level: a level-5 code is one substance, a shorter code a whole class
-- (prefix match). Rows under a non-commercial licence and commercially licensed rows
-- (which add mechanism and management) live in separate tables, so the texts a plan may
-- not see are never read for it. Both are written only by the interaction loader
-- (workers/ingest/interactions.ts), which diffs by natural key and content hash like the
-- register ingest engine and appends change records.

CREATE TABLE interaction_licences (
  id text PRIMARY KEY,
  name text NOT NULL,
  url text,
  commercial boolean NOT NULL,
  source text NOT NULL REFERENCES sources (id)
);

CREATE TABLE interaction_rules (
  source text NOT NULL REFERENCES sources (id),
  natural_key text NOT NULL,
  a_code text NOT NULL CHECK (a_code = upper(a_code)),
  b_code text NOT NULL CHECK (b_code = upper(b_code)),
  severity text NOT NULL CHECK (severity IN ('contraindicated', 'major', 'moderate', 'minor')),
  evidence text NOT NULL CHECK (evidence IN ('established', 'probable', 'suspected', 'theoretical')),
  description text NOT NULL,
  licence text NOT NULL REFERENCES interaction_licences (id),
  attributions jsonb NOT NULL,
  record jsonb NOT NULL,
  content_hash text NOT NULL,
  PRIMARY KEY (source, natural_key)
);
CREATE INDEX interaction_rules_a ON interaction_rules (a_code);
CREATE INDEX interaction_rules_b ON interaction_rules (b_code);

CREATE TABLE interaction_rules_licensed (
  source text NOT NULL REFERENCES sources (id),
  natural_key text NOT NULL,
  a_code text NOT NULL CHECK (a_code = upper(a_code)),
  b_code text NOT NULL CHECK (b_code = upper(b_code)),
  severity text NOT NULL CHECK (severity IN ('contraindicated', 'major', 'moderate', 'minor')),
  evidence text NOT NULL CHECK (evidence IN ('established', 'probable', 'suspected', 'theoretical')),
  description text NOT NULL,
  mechanism text NOT NULL,
  management text NOT NULL,
  licence text NOT NULL REFERENCES interaction_licences (id),
  attributions jsonb NOT NULL,
  record jsonb NOT NULL,
  content_hash text NOT NULL,
  PRIMARY KEY (source, natural_key)
);
CREATE INDEX interaction_rules_licensed_a ON interaction_rules_licensed (a_code);
CREATE INDEX interaction_rules_licensed_b ON interaction_rules_licensed (b_code);
