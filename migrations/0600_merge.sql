-- Sources that describe the same pack (Swiss SL, Swissmedic, Refdata, Zur Rose,
-- Artikelstamm; FDA NDC and SPL; ...) keep their own rows, so each source's ingest still
-- diffs exactly its own rows and never removes another's. The merge step of the engine
-- (workers/ingest/merge.ts) links them: a product or pack that another source's row
-- represents points to it with `merged_into`; the read side answers with the
-- representative and gathers every member's facts and sources.

ALTER TABLE products ADD COLUMN merged_into uuid REFERENCES products (id) ON DELETE SET NULL;
ALTER TABLE packs ADD COLUMN merged_into uuid REFERENCES packs (id) ON DELETE SET NULL;
CREATE INDEX products_merged_into ON products (merged_into) WHERE merged_into IS NOT NULL;
CREATE INDEX packs_merged_into ON packs (merged_into) WHERE merged_into IS NOT NULL;

-- What a person searching for a human medicine sees: representatives only, and neither
-- veterinary products nor bulk ingredients (both stay reachable by their codes).
ALTER TABLE products ADD COLUMN searchable boolean GENERATED ALWAYS AS (
  merged_into IS NULL
  AND coalesce(record ->> 'veterinary', 'false') <> 'true'
  AND coalesce(record -> 'attributes' ->> 'unfinished', 'false') <> 'true'
) STORED;

-- Dated and replaced codes (dm+d GTINs carry validity dates; previous dm+d ids still resolve).
ALTER TABLE identifiers ADD COLUMN valid_from date;
ALTER TABLE identifiers ADD COLUMN valid_to date;
ALTER TABLE identifiers ADD COLUMN previous boolean NOT NULL DEFAULT false;
