-- BYOL credential vault: one sealed credential per tenant and provider. Only AES-256-GCM
-- ciphertext, its nonce and tag, and the id of the master key that sealed it are kept;
-- key_hint is at most the last four characters of a key field, for the status answer.
CREATE TABLE byol_credentials (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  provider text NOT NULL,
  key_id text NOT NULL,
  nonce bytea NOT NULL CHECK (octet_length(nonce) = 12),
  ciphertext bytea NOT NULL,
  auth_tag bytea NOT NULL CHECK (octet_length(auth_tag) = 16),
  key_hint text CHECK (key_hint IS NULL OR char_length(key_hint) <= 4),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, provider)
);
-- Rotation looks for rows sealed under an older key.
CREATE INDEX byol_credentials_key ON byol_credentials (key_id);
