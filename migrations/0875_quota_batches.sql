-- Requests of one account that arrive while its quota count is in flight are counted together
-- by the next statement (resolvers/accounts/quota.ts). The statement admits as many of them as
-- both windows allow and records that number here, so RETURNING tells the process how many of
-- the batch were admitted (the row's counts alone cannot: PostgreSQL 15 returns no old values).
ALTER TABLE quota_usage ADD COLUMN last_admitted integer NOT NULL DEFAULT 0;
