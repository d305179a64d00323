-- AI assistant metering: the monthly answer allowance used per account and UTC month,
-- the prepaid pack credit balance (carries over months), and pack checkout orders.
CREATE TABLE chat_allowance_usage (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  month_start date NOT NULL,
  answers_used integer NOT NULL DEFAULT 0 CHECK (answers_used >= 0),
  PRIMARY KEY (account_id, month_start)
);

CREATE TABLE chat_pack_balance (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  credits integer NOT NULL CHECK (credits >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One row per started checkout. The credit lands when the provider's signed completion
-- callback flips status from pending to paid; that one-way conditional update is what
-- makes a repeated callback credit nothing.
CREATE TABLE chat_pack_orders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  pack text NOT NULL,
  answers integer NOT NULL CHECK (answers > 0),
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL,
  provider text NOT NULL,
  session_id text UNIQUE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid')),
  event_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz
);
CREATE INDEX chat_pack_orders_account ON chat_pack_orders (account_id, created_at);
