-- Webhook subscriptions, their delivery cursors and leases, and every delivery attempt.
-- The change log itself (`changes`) comes from 0002; this file only reads it.

CREATE TABLE webhook_subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  url text NOT NULL,
  events text[] NOT NULL CHECK (cardinality(events) > 0
    AND events <@ ARRAY['changes.insert', 'changes.update', 'changes.delete', 'changes.recall']),
  -- The signing secret sealed with AES-256-GCM: 12-byte IV, 16-byte tag, ciphertext.
  -- `secret_key_ref` names the key that sealed it ('config:<fingerprint>' or 'db').
  secret_sealed bytea NOT NULL,
  secret_key_ref text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Delivery cursor: the newest change acknowledged with a 2xx. It starts at creation, so
  -- a new subscription receives the changes that occur after it exists.
  cursor_occurred_at timestamptz NOT NULL DEFAULT now(),
  cursor_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
  -- Lease of the worker sending this subscription's window; committed before the POST so
  -- no transaction stays open across the network call.
  leased_until timestamptz,
  lease_token uuid,
  last_attempt_at timestamptz
);
CREATE INDEX webhook_subscriptions_account ON webhook_subscriptions (account_id, created_at);

-- One row per POST attempt; `id` is the delivery_id sent to the receiver.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  subscription_id uuid NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
  attempted_at timestamptz NOT NULL,
  window_since timestamptz NOT NULL,
  window_until timestamptz NOT NULL,
  change_count integer NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('delivered', 'http_error', 'timeout', 'connection_error')),
  status_code integer,
  error text,
  duration_ms integer NOT NULL
);
CREATE INDEX webhook_deliveries_recent ON webhook_deliveries (subscription_id, attempted_at DESC);

-- Fallback key material when WEBHOOK_SECRET_KEY is not configured (development): one row,
-- created on first use. With it a database dump alone can forge signatures, which is why
-- production sets WEBHOOK_SECRET_KEY (docs/webhooks.md).
CREATE TABLE webhook_fallback_key (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  material bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
