/**
 * Bearer-key authentication with the spec's 30-second cache of resolved keys, scope
 * checks and quota metering. Each step throws the spec's ApiError.
 */
import { LRUCache } from 'lru-cache';
import type { Database } from '../../platform/db.ts';
import type { Clock } from '../../platform/clock.ts';
import { ApiError } from '../../platform/errors.ts';
import { findPrincipal, hashKey, parseKey } from '../../resolvers/accounts/keys.ts';
import type { Principal } from '../../resolvers/accounts/keys.ts';
import { consumeQuota } from '../../resolvers/accounts/quota.ts';
import type { Scope } from '../../resolvers/accounts/tiers.ts';

const BEARER = /^Bearer +(\S+)\s*$/i;

/**
 * Most distinct keys remembered at once: far above the keys one instance serves in 30 s,
 * and it bounds memory when many keys (or a key-guessing client) pass through.
 */
export const KEY_CACHE_MAX = 10_000;

/**
 * Remembers resolved keys for `ttlMs`, so revocation takes at most that long to apply: a
 * bounded LRU with TTL (lru-cache), so a key that stops being used is evicted in time.
 */
export class KeyCache {
  private readonly entries: LRUCache<string, Principal>;

  constructor(private readonly ttlMs: number, now: Clock) {
    this.entries = new LRUCache<string, Principal>({
      max: KEY_CACHE_MAX,
      ttl: Math.max(ttlMs, 0),
      // TTL follows the app's clock (tests move it); resolution 0 reads it on every get.
      perf: { now: () => now().getTime() },
      ttlResolution: 0,
    });
  }

  get(hash: string): Principal | undefined {
    return this.entries.get(hash);
  }

  set(hash: string, principal: Principal): void {
    if (this.ttlMs > 0) this.entries.set(hash, principal);
  }

  /** Keys remembered now, expired ones not yet evicted included (tests check the bound). */
  get size(): number {
    return this.entries.size;
  }
}

export interface Guard {
  authenticate(authorization: string | undefined): Promise<Principal>;
  meter(principal: Principal): Promise<number | null>;
  requireScope(principal: Principal, scope: Scope | null): void;
}

export function createGuard(db: Database, now: Clock, cache: KeyCache, upgradeUrl: string): Guard {
  return {
    async authenticate(authorization) {
      const token = authorization ? BEARER.exec(authorization)?.[1] : undefined;
      if (!token) throw new ApiError('unauthorized');
      const parsed = parseKey(token);
      if (parsed.kind === 'legacy') {
        throw new ApiError('unauthorized', 'Keys with a legacy_ prefix are no longer accepted; create a replacement key.');
      }
      if (parsed.kind === 'malformed') throw new ApiError('unauthorized', 'The bearer token is not a valid API key.');
      const hash = hashKey(parsed.key);
      const cached = cache.get(hash);
      if (cached) return cached;
      const principal = await findPrincipal(db, parsed.key);
      if (!principal) throw new ApiError('unauthorized', 'The API key is unknown or revoked.');
      cache.set(hash, principal);
      return principal;
    },

    async meter(principal) {
      const at = now();
      const decision = await consumeQuota(db, principal.accountId, principal.tier, at, principal.keyId);
      if (decision.admitted) return decision.remaining;
      const retryAfter = Math.max(1, Math.ceil((decision.resets.getTime() - at.getTime()) / 1000));
      throw new ApiError(
        'quota_exceeded',
        `The ${decision.window} quota of ${decision.limit} requests is used up.`,
        { tier: principal.tier, limit: decision.limit, window: decision.window, resets: decision.resets.toISOString(), upgrade_url: upgradeUrl },
        { 'retry-after': String(retryAfter) },
      );
    },

    requireScope(principal, scope) {
      if (scope && !principal.scopes.has(scope)) {
        throw new ApiError('forbidden', `This operation needs the scope ${scope}.`, { tier: principal.tier, missing_scope: scope });
      }
    },
  };
}
