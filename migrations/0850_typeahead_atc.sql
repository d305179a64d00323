-- The typeahead by ATC code or class (resolvers/catalogue/search.ts `byAtcTier`): the
-- products under each code in the typeahead's name order (0840_hot_path.sql), so a code's
-- first `limit` names come straight off the index however many products it has, and the
-- codes under a class are found by probing the same index once per code. The code in
-- byte order (COLLATE "C") whatever the database's collation, as the names.
CREATE INDEX products_search_atc ON products (country, atc_code COLLATE "C", (lower(product_name) COLLATE "C"), id) WHERE searchable;
-- The same for country=ALL.
CREATE INDEX products_search_atc_all ON products (atc_code COLLATE "C", (lower(product_name) COLLATE "C"), id) WHERE searchable;
