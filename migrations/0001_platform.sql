-- Accounts, API keys and the quota counters: what every request's authentication needs.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL UNIQUE,
  tier text NOT NULL CHECK (tier IN ('developer', 'pro', 'starter', 'growth', 'enterprise')),
  is_demo boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Only the SHA-256 of a key and its last four characters are kept.
CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  prefix text NOT NULL CHECK (prefix IN ('svc_live_', 'svc_test_')),
  key_hash text NOT NULL UNIQUE,
  last_four text NOT NULL,
  scopes text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id);

-- One row per account and calendar month (UTC); the day counter lives on the same row so
-- one conditional upsert checks and counts both windows atomically.
CREATE TABLE quota_usage (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  month_start date NOT NULL,
  month_used integer NOT NULL,
  day_start date NOT NULL,
  day_used integer NOT NULL,
  PRIMARY KEY (account_id, month_start)
);
