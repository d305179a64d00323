-- Fallback receipt signing key when RECEIPT_SIGNING_KEY is not configured: one Ed25519
-- key (PKCS8 PEM), created on first use and kept so receipts stay verifiable across
-- restarts and every instance on this database signs with the key its JWKS publishes.
-- A database dump alone could forge receipts with it, which is why production sets
-- RECEIPT_SIGNING_KEY (docs/api-decisions.md, "Signed no-retention receipts").
CREATE TABLE receipt_fallback_key (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  private_pkcs8 text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
