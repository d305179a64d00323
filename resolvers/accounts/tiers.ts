/**
 * The spec's tier table: scopes (each tier extends the one below), quotas, key limits.
 * The quota table's "Free" plan is the `developer` tier: it is the lowest tier of the
 * scope table and the only one without a price (docs/api-decisions.md).
 */

export const TIERS = ['developer', 'pro', 'starter', 'growth', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const SCOPES = [
  'drugs:read', 'atc:read', 'changes:read', 'chat:write', 'graphql:query', 'webhooks:write',
  'interactions:write', 'byol:write', 'ch:claims', 'sso',
] as const;
export type Scope = (typeof SCOPES)[number];

const ADDED_SCOPES: Record<Tier, Scope[]> = {
  developer: ['drugs:read', 'atc:read', 'changes:read', 'chat:write'],
  pro: ['graphql:query'],
  starter: ['webhooks:write'],
  growth: ['interactions:write', 'byol:write', 'ch:claims'],
  enterprise: ['sso'],
};

export interface TierLimits {
  /** Plan name of the quota table. */
  plan: string;
  monthly: number | null;
  daily: number | null;
  maxKeys: number;
  paid: boolean;
}

export const TIER_LIMITS: Record<Tier, TierLimits> = {
  developer: { plan: 'Free', monthly: 10, daily: 10, maxKeys: 2, paid: false },
  pro: { plan: 'Pro', monthly: 1_500, daily: 500, maxKeys: 5, paid: true },
  starter: { plan: 'Starter', monthly: 20_000, daily: null, maxKeys: 10, paid: true },
  growth: { plan: 'Growth', monthly: 150_000, daily: null, maxKeys: 25, paid: true },
  // "Effectively unlimited": a ceiling no contract reaches, so x-ratelimit-remaining stays a number.
  enterprise: { plan: 'Enterprise', monthly: 10_000_000, daily: null, maxKeys: 100, paid: true },
};

/** Every scope a tier grants, its own and those of the tiers below it. */
export function tierScopes(tier: Tier): Set<Scope> {
  const scopes = new Set<Scope>();
  for (const t of TIERS) {
    for (const s of ADDED_SCOPES[t]) scopes.add(s);
    if (t === tier) break;
  }
  return scopes;
}

export function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value);
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** A key can be narrowed but never widened: tier scopes ∩ key scopes. */
export function effectiveScopes(tier: Tier, keyScopes: readonly string[]): Set<Scope> {
  const granted = tierScopes(tier);
  return new Set(keyScopes.filter((s): s is Scope => isScope(s) && granted.has(s)));
}
