import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../platform/config.ts';

const env = (extra: Record<string, string>) => ({ DATA_DIR: 'memory://', ...extra });

describe('BYOL master key configuration', () => {
  it('reads several keys and makes the first active unless BYOL_MASTER_KEY_ID says otherwise', () => {
    const a = randomBytes(32);
    const b = randomBytes(32);
    const config = loadConfig(env({ BYOL_MASTER_KEYS: `k1:${a.toString('base64')}, k2:${b.toString('base64')}` }));
    expect(config.byolActiveKeyId).toBe('k1');
    expect(config.byolMasterKeys.k2!.equals(b)).toBe(true);
    expect(loadConfig(env({ BYOL_MASTER_KEYS: `k1:${a.toString('base64')},k2:${b.toString('base64')}`, BYOL_MASTER_KEY_ID: 'k2' })).byolActiveKeyId).toBe('k2');
  });

  it('leaves the vault off when no key is configured', () => {
    const config = loadConfig(env({}));
    expect(config.byolMasterKeys).toEqual({});
    expect(config.byolActiveKeyId).toBeNull();
  });

  it('fails fast on a malformed key, naming the variable but never the key material', () => {
    const short = randomBytes(16).toString('base64');
    expect(() => loadConfig(env({ BYOL_MASTER_KEYS: `k1:${short}` }))).toThrow(/BYOL_MASTER_KEYS key "k1" must decode to 32 bytes/);
    try {
      loadConfig(env({ BYOL_MASTER_KEYS: `k1:${short}` }));
    } catch (err) {
      expect((err as Error).message).not.toContain(short);
    }
    expect(() => loadConfig(env({ BYOL_MASTER_KEYS: 'no-colon' }))).toThrow(/BYOL_MASTER_KEYS must be/);
    expect(() => loadConfig(env({ BYOL_MASTER_KEYS: `k1:${randomBytes(32).toString('base64')}`, BYOL_MASTER_KEY_ID: 'k9' }))).toThrow(/BYOL_MASTER_KEY_ID "k9"/);
  });
});
