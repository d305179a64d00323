-- `interrupted`: a delivery attempt cut off by the death of its worker (kill -9, crash),
-- recorded by the worker that takes the subscription over once the short, heartbeat-renewed
-- lease lapsed (workers/webhooks/claims.ts). The window is then sent again.
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_outcome_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_outcome_check
  CHECK (outcome IN ('delivered', 'http_error', 'timeout', 'connection_error', 'interrupted'));
