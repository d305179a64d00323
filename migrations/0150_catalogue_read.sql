-- Indexes the read side of the catalogue needs beyond 0101 (typeahead, pack and class
-- walks). Additive only: the ingest engine's tables are unchanged.

-- Short typeahead prefixes (1-2 characters) cannot use the trigram indexes; a
-- text_pattern_ops b-tree serves `lower(name) LIKE 'ab%'` under any collation.
CREATE INDEX products_name_prefix ON products (lower(product_name) text_pattern_ops);
CREATE INDEX substances_name_prefix ON substances (lower(name) text_pattern_ops);

-- Class → drugs walks for the non-ATC axes (US PHARM_CLASSES sit on products).
CREATE INDEX product_classes_class ON product_classes (system, code);

