import { describe, expect, it } from 'vitest';
import { effectiveScopes, tierScopes, TIERS } from '../../resolvers/accounts/tiers.ts';

describe('tier scopes', () => {
  it('matches the spec table, each tier extending the one below', () => {
    expect([...tierScopes('developer')].sort()).toEqual(['atc:read', 'changes:read', 'chat:write', 'drugs:read']);
    expect([...tierScopes('pro')].sort()).toEqual(['atc:read', 'changes:read', 'chat:write', 'drugs:read', 'graphql:query']);
    expect(tierScopes('starter').has('webhooks:write')).toBe(true);
    expect(tierScopes('starter').has('byol:write')).toBe(false);
    for (const s of ['interactions:write', 'byol:write', 'ch:claims']) expect(tierScopes('growth').has(s as never)).toBe(true);
    expect(tierScopes('growth').has('sso')).toBe(false);
    expect(tierScopes('enterprise').has('sso')).toBe(true);
    for (let i = 1; i < TIERS.length; i++) {
      for (const s of tierScopes(TIERS[i - 1]!)) expect(tierScopes(TIERS[i]!).has(s)).toBe(true);
    }
  });

  it('narrows but never widens: effective = tier ∩ key', () => {
    expect([...effectiveScopes('pro', ['drugs:read', 'byol:write', 'made:up'])]).toEqual(['drugs:read']);
    expect(effectiveScopes('developer', ['graphql:query']).size).toBe(0);
  });
});
