import { describe, expect, it } from 'vitest';
import { KEY_CACHE_MAX, KeyCache } from '../../facades/http/auth.ts';
import type { Principal } from '../../resolvers/accounts/keys.ts';

const principal = (id: string) => ({ keyId: id }) as unknown as Principal;

describe('KeyCache', () => {
  it('forgets a resolved key once its TTL has passed on the app clock', () => {
    let t = 1_000_000;
    const cache = new KeyCache(30_000, () => new Date(t));
    cache.set('h1', principal('k1'));
    t += 29_999;
    expect(cache.get('h1')).toEqual(principal('k1'));
    t += 2;
    expect(cache.get('h1')).toBeUndefined();
  });

  it('keeps nothing when the TTL is 0', () => {
    const cache = new KeyCache(0, () => new Date());
    cache.set('h1', principal('k1'));
    expect(cache.get('h1')).toBeUndefined();
  });

  it('is bounded: the least recently used key is evicted past KEY_CACHE_MAX', () => {
    const cache = new KeyCache(30_000, () => new Date(0));
    for (let i = 0; i <= KEY_CACHE_MAX; i++) cache.set(`h${i}`, principal(`k${i}`));
    expect(cache.size).toBe(KEY_CACHE_MAX);
    expect(cache.get('h0')).toBeUndefined();
    expect(cache.get(`h${KEY_CACHE_MAX}`)).toEqual(principal(`k${KEY_CACHE_MAX}`));
  });
});
