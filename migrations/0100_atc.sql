-- The WHO ATC tree and its defined daily doses. A node's parent is the code one level up.
CREATE TABLE atc_nodes (
  code text PRIMARY KEY CHECK (code = upper(code)),
  name text NOT NULL,
  level smallint NOT NULL CHECK (level BETWEEN 1 AND 5),
  parent_code text,
  source text NOT NULL REFERENCES sources (id)
);
CREATE INDEX atc_nodes_parent ON atc_nodes (parent_code);
CREATE INDEX atc_nodes_code_prefix ON atc_nodes (code text_pattern_ops);

CREATE TABLE atc_ddd (
  code text NOT NULL REFERENCES atc_nodes (code) ON DELETE CASCADE,
  value numeric NOT NULL,
  unit text NOT NULL,
  route text NOT NULL,
  note text,
  PRIMARY KEY (code, route, unit)
);
