-- Dated reference exchange rates (units of `currency` per 1 EUR, as the ECB publishes
-- them), loaded from a file by resolvers/markets/fx-file.ts. Market overviews convert
-- local prices to USD through EUR with the newest date in the table.
CREATE TABLE fx_rates (
  rate_date date NOT NULL,
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  per_eur numeric NOT NULL CHECK (per_eur > 0),
  source text NOT NULL,
  PRIMARY KEY (rate_date, currency)
);
