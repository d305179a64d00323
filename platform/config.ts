/**
 * The one place that reads the environment. `loadConfig` validates every variable once at
 * start and fails fast with a message naming the variable; the rest of the code receives
 * a typed `Config`. Tests build their own with `testConfig`.
 */
import { resolve } from 'node:path';

export type Role = 'all' | 'api' | 'worker';

export interface Config {
  host: string;
  port: number;
  /** PostgreSQL connection string; null selects the embedded database (PGlite). */
  databaseUrl: string | null;
  /** Where the embedded database keeps its files; `memory://` keeps it in memory. */
  dataDir: string;
  logLevel: string;
  role: Role;
  /** How long a resolved API key is trusted before it is looked up again (spec: 30 s). */
  keyCacheTtlMs: number;
  /** Per-IP budget of the keyless endpoints (the OpenAPI document). */
  publicRateLimitPerMinute: number;
  /** Largest request body accepted, in bytes. */
  bodyLimitBytes: number;
  /** Where 429 and 402 answers send the caller to upgrade. */
  upgradeUrl: string;
  pricingUrl: string;
  /** Load the bundled demo catalogue and demo account into an empty database. */
  demo: boolean;
}

type Env = Record<string, string | undefined>;

class ConfigError extends Error {}

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function url(env: Env, name: string, fallback: string | null): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  try {
    new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw.replace(/\/\/[^@/]*@/, '//***@')}"`);
  }
  return raw;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** Reads and validates the environment. Throws with the offending variable's name. */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = env.DATA_DIR || './.data';
  return {
    host: env.HOST || '0.0.0.0',
    port: int(env, 'PORT', 3000),
    databaseUrl: url(env, 'DATABASE_URL', null),
    dataDir: dataDir === 'memory://' ? dataDir : resolve(dataDir),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    role: oneOf(env, 'ROLE', ['all', 'api', 'worker'] as const, 'all'),
    keyCacheTtlMs: int(env, 'KEY_CACHE_TTL_MS', 30_000),
    publicRateLimitPerMinute: int(env, 'PUBLIC_RATE_LIMIT_PER_MINUTE', 60, 1),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024),
    upgradeUrl: url(env, 'UPGRADE_URL', 'https://drugref.example/pricing#upgrade') as string,
    pricingUrl: url(env, 'PRICING_URL', 'https://drugref.example/pricing') as string,
    demo: bool(env, 'DEMO', true),
  };
}

/** A config for tests: in-memory database, silent logs, overridable fields. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'silent', DEMO: 'false' }), ...overrides };
}

export { ConfigError };
