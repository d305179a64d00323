-- Look-alike / sound-alike (LASA) names (docs/catalogue.md "LASA").
--
-- Names are compared by their key: the first word of the product name, lower case, accents
-- folded, letters only ("Co-Amoxi 1 g" -> "coamoxi": a first word under three letters takes
-- the next one). Two data sets feed the `lasa` field of search rows:
--   lasa_names  curated pairs loaded with `drugref reference lasa <file>` (ISMP's list ...);
--   lasa_pairs  pairs computed among the marketed names of one country (spelling: normalised
--               Levenshtein similarity of the keys; phonetic: the same over their Metaphone
--               codes), refreshed per country when its sources' last sync moves (lasa_state).
-- The request joins both to the live catalogue, so a name that left the market drops out at once.

CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;

CREATE FUNCTION lasa_name_key(name text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT CASE WHEN length(m[1]) < 3 AND m[2] IS NOT NULL THEN m[1] || m[2] ELSE m[1] END
    FROM (SELECT regexp_match(
            lower(translate(name, 'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿŠšŽžČčŘřĆćŁłŃńŚśŹźŻż',
                                  'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOOooooooUUUUuuuuYyySsZzCcRrCcLlNnSsZzZz')),
            '([a-z]+)(?:[^a-z0-9 ]([a-z]+))?') AS m) x
$$;

-- The representative of a name in a country is found by this index (search rows ask for it).
CREATE INDEX products_lasa_key ON products (country, lasa_name_key(product_name)) WHERE searchable;

CREATE TABLE lasa_names (
  source text NOT NULL,
  key_a text NOT NULL,
  key_b text NOT NULL,
  name_a text NOT NULL,
  name_b text NOT NULL,
  reason text NOT NULL,
  loaded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source, key_a, key_b),
  CHECK (key_a < key_b)
);
CREATE INDEX lasa_names_key_a ON lasa_names (key_a);
CREATE INDEX lasa_names_key_b ON lasa_names (key_b);

-- Both directions are stored so a row's neighbours are one index range.
CREATE TABLE lasa_pairs (
  country text NOT NULL,
  key text NOT NULL,
  other text NOT NULL,
  spelling real NOT NULL,
  phonetic real NOT NULL,
  PRIMARY KEY (country, key, other)
);

CREATE TABLE lasa_state (
  country text PRIMARY KEY,
  -- The country's sources as they stood when the pairs were computed (count and last sync).
  sources_stamp text NOT NULL,
  names integer NOT NULL,
  pairs integer NOT NULL,
  computed_at timestamptz NOT NULL DEFAULT now()
);

-- Similar pairs among `keys` (each unordered pair once, a < b). `spelling` and `phonetic` are
-- similarities in [0, 1]: 1 - Levenshtein distance / length of the longer key, and the same
-- over the keys' Metaphone codes. A pair is kept when either reaches its threshold; the
-- bounded distance (levenshtein_less_equal) stops early on the many pairs that are far apart.
CREATE FUNCTION lasa_similar_pairs(keys text[], spelling_min double precision, phonetic_min double precision)
RETURNS TABLE (a text, b text, spelling double precision, phonetic double precision)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  WITH n AS (
    SELECT DISTINCT k AS key, metaphone(k, 64) AS code FROM unnest(keys) AS k WHERE length(k) >= 3
  ),
  scored AS (
    SELECT x.key AS a, y.key AS b,
           greatest(length(x.key), length(y.key)) AS len,
           greatest(length(x.code), length(y.code), 1) AS code_len,
           levenshtein_less_equal(x.key, y.key, floor((1 - spelling_min) * greatest(length(x.key), length(y.key)) + 1e-9)::int) AS d,
           levenshtein_less_equal(x.code, y.code, floor((1 - phonetic_min) * greatest(length(x.code), length(y.code), 1) + 1e-9)::int) AS dc
      FROM n x JOIN n y ON x.key < y.key
  )
  SELECT a, b, 1 - d::float8 / len, 1 - dc::float8 / code_len FROM scored
   WHERE 1 - d::float8 / len >= spelling_min - 1e-9 OR 1 - dc::float8 / code_len >= phonetic_min - 1e-9
$$;

-- What the pairs of a country were computed from: how many sources it has and their last
-- sync (epoch seconds, so the text does not depend on the session's time zone).
CREATE FUNCTION lasa_sources_stamp(c text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT count(*)::text || '|' || coalesce(extract(epoch FROM max(last_synced_at))::text, '') FROM sources WHERE country = c
$$;
