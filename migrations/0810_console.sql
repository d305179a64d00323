-- The account console (docs/console.md): per-key usage, key names, sign-in tokens,
-- console sessions and OpenID Connect single sign-on per account.

-- Requests counted per account, UTC day and caller: a key, or the console's own lookups
-- (key_id null). Written by the quota statement itself (resolvers/accounts/quota.ts), so
-- counting a request stays one round trip. `last_at` is when the caller was last counted.
CREATE TABLE request_usage (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  day date NOT NULL,
  key_id uuid REFERENCES api_keys (id) ON DELETE CASCADE,
  requests integer NOT NULL,
  last_at timestamptz NOT NULL
);
-- A unique index over an expression rather than NULLS NOT DISTINCT (PostgreSQL 15+), so
-- the console's row (key_id null) is one row per day on every supported server.
CREATE UNIQUE INDEX request_usage_caller
  ON request_usage (account_id, day, (coalesce(key_id, '00000000-0000-0000-0000-000000000000'::uuid)));
CREATE INDEX request_usage_key ON request_usage (key_id, day) WHERE key_id IS NOT NULL;

-- A label the account's people give a key in the console.
ALTER TABLE api_keys ADD COLUMN name text;

-- One-time sign-in tokens (CLI link or finished SSO): only the SHA-256 is kept; a token is
-- deleted when used, so it works once.
CREATE TABLE console_login_tokens (
  token_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  via text NOT NULL CHECK (via IN ('cli', 'sso')),
  -- The identity provider subject or e-mail that signed in (SSO), for the audit log line.
  subject text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX console_login_tokens_expiry ON console_login_tokens (expires_at);

-- Console sessions: the bearer console token, stored only as its SHA-256.
CREATE TABLE console_sessions (
  token_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  via text NOT NULL CHECK (via IN ('cli', 'sso')),
  subject text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX console_sessions_expiry ON console_sessions (expires_at);

-- An account's OpenID Connect identity provider. The client secret is sealed with the
-- vault's master keys (AES-256-GCM, bound to the account), never stored in plaintext.
CREATE TABLE console_sso (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  issuer text NOT NULL,
  client_id text NOT NULL,
  key_id text NOT NULL,
  nonce bytea NOT NULL,
  ciphertext bytea NOT NULL,
  auth_tag bytea NOT NULL,
  -- Who may sign in: a verified e-mail in this domain, or one of these subjects.
  email_domain text,
  subjects text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (email_domain IS NOT NULL OR cardinality(subjects) > 0)
);

-- SSO sign-ins under way: state (as SHA-256), PKCE verifier and nonce, single use.
CREATE TABLE console_sso_flows (
  state_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX console_sso_flows_expiry ON console_sso_flows (expires_at);
