/**
 * The one place that reads the environment. `loadConfig` validates every variable once at
 * start and fails fast with a message naming the variable; the rest of the code receives
 * a typed `Config`. Tests build their own with `testConfig`.
 */
import { resolve } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { parsePrivateKey, parsePublicKeys, ReceiptKeyError } from './crypto/receipts.ts';
import { HTTP_SOURCES, LOCAL_SOURCES, SOURCE_DEFAULTS, envName } from './upstream/sources.ts';
import type { SourceId } from './upstream/sources.ts';
import { SYNC_SOURCES, syncEnvName } from './sync-sources.ts';

export type Role = 'all' | 'api' | 'worker';

export interface Config {
  host: string;
  port: number;
  /** PostgreSQL connection string; null selects the embedded database (PGlite). */
  databaseUrl: string | null;
  /**
   * DATABASE_REPLICA_URLS: streaming replicas of DATABASE_URL (comma-separated) that serve
   * the API's read-only operations; writes and everything outside an operation use the primary.
   */
  databaseReplicaUrls: string[];
  /** DATABASE_REPLICA_MAX_LAG_MS: a replica further behind the primary is skipped until it catches up. */
  databaseReplicaMaxLagMs: number;
  /** DATABASE_REPLICA_CHECK_MS: how often each replica's health and lag are checked. */
  databaseReplicaCheckMs: number;
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
  /**
   * 32-byte key (64 hex chars or base64) that encrypts webhook signing secrets
   * (AES-256-GCM) and signs /v1/changes cursors; null falls back to a key kept in the
   * database (docs/webhooks.md says what that gives up).
   */
  webhookSecretKey: string | null;
  /** Webhook delivery cycle (spec: 60 s). */
  webhookIntervalMs: number;
  /** How long a receiver has to answer one batch (spec: 15 s). */
  webhookTimeoutMs: number;
  /** Change rows per subscription per run (spec: 500). */
  webhookBatchCap: number;
  /** Let deliveries reach loopback and private networks (local development only). */
  webhookAllowPrivateTargets: boolean;
  /** BYOL vault master keys by key id (32 bytes each); none configured turns the vault off (503). Never logged. */
  byolMasterKeys: Record<string, Buffer>;
  /** The key id new BYOL credentials are sealed with (the others only decrypt, for rotation). */
  byolActiveKeyId: string | null;
  /** Base URL of each licensed BYOL provider (drugbank, fdb, medispan). */
  byolBaseUrls: Record<string, string>;
  /** Timeout of one BYOL passthrough request. */
  byolTimeoutMs: number;
  /** OpenAI-compatible chat-completions base URL; null runs the built-in deterministic assistant. */
  modelBaseUrl: string | null;
  modelName: string;
  /** Bearer key of the model endpoint. Never logged. */
  modelApiKey: string | null;
  modelTimeoutMs: number;
  /** Stripe-compatible payment API base URL and secret key; no key turns pack checkout off (503). */
  paymentBaseUrl: string;
  paymentSecretKey: string | null;
  /** Secret of the payment provider's signed completion callback (`t=…,v1=…`). Never logged. */
  paymentWebhookSecret: string | null;
  /** Where the hosted checkout sends the buyer back. */
  checkoutSuccessUrl: string;
  checkoutCancelUrl: string;
  /**
   * Ed25519 key that signs no-retention receipts (RECEIPT_SIGNING_KEY, PKCS8 PEM or private
   * JWK); null falls back to a key generated once and kept in the database. Never logged.
   */
  receiptSigningKey: KeyObject | null;
  /** Public keys of rotated-out signing keys, still published at /.well-known/jwks.json. */
  receiptPreviousKeys: KeyObject[];
  /** The receipts' `iss` claim. */
  receiptIssuer: string;
  /** Enrichment sources: the upstream client, its cache and the licensed crosswalk. */
  upstream: UpstreamConfig;
  /** Register downloads of the sync worker (workers/sync/, docs/sync.md). */
  sync: SyncConfig;
  /**
   * Where browsers reach this service (PUBLIC_BASE_URL, no trailing slash): console sign-in
   * links and the SSO redirect URI are built on it. Null: http://localhost:PORT.
   */
  publicBaseUrl: string | null;
  /** Lifetime of a console session token, fixed from sign-in (docs/console.md). */
  consoleSessionTtlSeconds: number;
  /** Let console SSO reach identity providers on loopback/private addresses and over plain http (tests, self-hosted IdPs). */
  ssoAllowPrivateIssuers: boolean;
  /** Bearer token `/metrics` requires (METRICS_TOKEN); null serves it to anyone who reaches it. Never logged. */
  metricsToken: string | null;
  /**
   * A listener of its own for `/metrics` (METRICS_PORT, on HOST), e.g. reachable only from
   * the monitoring network; the API's port then answers `/metrics` with 404. Null: the API's port.
   */
  metricsPort: number | null;
}

/** One register source of the sync worker: where its file lives, on or off, how often to look. */
export interface SyncSourceConfig {
  /** Download URL (`{file}` for several files); null until configured where there is no public default. */
  url: string | null;
  enabled: boolean;
  intervalHours: number;
  /** Largest share (percent) of the source's products or packs one sync may delete (the shrink guard). */
  maxDeletePercent: number;
}

/** The shrink guard of `drugref ingest` and the sync worker (workers/ingest/shrink-guard.ts). */
export interface ShrinkGuardConfig {
  /** Largest share (percent) of a source's stored products or packs one ingest may delete. */
  maxDeletePercent: number;
  /** Largest share (percent) of a file's rows that may be skipped as malformed. */
  maxSkippedPercent: number;
}

export interface SyncConfig {
  /** Run the scheduled sync worker at all (off by default: `npm start` and tests never reach the internet). */
  enabled: boolean;
  sources: Record<string, SyncSourceConfig>;
  /** How often the worker looks for due sources. */
  tickMs: number;
  /** Deadline of one download, headers to last byte. */
  timeoutMs: number;
  /** Largest download accepted, in bytes. */
  maxBytes: number;
  /** Largest total of unpacked archive entries accepted, in bytes (zip bombs). */
  maxUnpackedBytes: number;
  /** First retry delay after a failure; doubles per consecutive failure, capped at the source's interval. */
  retryBaseMs: number;
  /** Refuse a file with any malformed row instead of skipping those rows. */
  strict: boolean;
  /** Let downloads reach loopback and private networks (tests, local mirrors). */
  allowPrivateTargets: boolean;
  /** The shrink guard's defaults; each source may lower or raise its delete share. */
  shrink: ShrinkGuardConfig;
  /** How far the CLI's `ingest` and `sync` let V8's heap grow past its live set between full collections (percent; 0: V8's own). */
  heapGrowthPercent: number;
}

/** One enrichment source: where it lives, how long its answers stay fresh, on or off. */
export interface SourceConfig {
  baseUrl: string | null;
  ttlSeconds: number;
  enabled: boolean;
}

export interface UpstreamConfig {
  sources: Record<SourceId, SourceConfig>;
  timeoutMs: number;
  /** Retries after the first attempt, on network errors, 429 and 5xx only. */
  retries: number;
  retryBaseMs: number;
  /** Requests in flight per upstream at most. */
  concurrency: number;
  /** `retry-after` of the 503 a switched-off source answers. */
  retryAfterSeconds: number;
  /** Licence key of the RxNorm crosswalk; null leaves the crosswalk out. */
  crosswalkKey: string | null;
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

function upstreamConfig(env: Env): UpstreamConfig {
  const sources = {} as Record<SourceId, SourceConfig>;
  for (const id of [...HTTP_SOURCES, ...LOCAL_SOURCES]) {
    const name = envName(id);
    const defaults = SOURCE_DEFAULTS[id];
    sources[id] = {
      baseUrl: defaults.baseUrl === null && !env[`UPSTREAM_${name}_URL`] ? null : url(env, `UPSTREAM_${name}_URL`, defaults.baseUrl),
      ttlSeconds: int(env, `UPSTREAM_${name}_TTL_SECONDS`, defaults.ttlSeconds),
      enabled: bool(env, `UPSTREAM_${name}_ENABLED`, true),
    };
  }
  const crosswalkKey = env.RXNORM_CROSSWALK_KEY || null;
  if (crosswalkKey && !sources.crosswalk.baseUrl) throw new ConfigError('RXNORM_CROSSWALK_KEY needs UPSTREAM_CROSSWALK_URL (the licensed crosswalk has no public default)');
  return {
    sources,
    timeoutMs: int(env, 'UPSTREAM_TIMEOUT_MS', 10_000, 1),
    retries: int(env, 'UPSTREAM_RETRIES', 2),
    retryBaseMs: int(env, 'UPSTREAM_RETRY_BASE_MS', 250),
    concurrency: int(env, 'UPSTREAM_CONCURRENCY', 4, 1),
    retryAfterSeconds: int(env, 'UPSTREAM_RETRY_AFTER_SECONDS', 300, 1),
    crosswalkKey,
  };
}

/** An integer percentage 0..100. */
function percent(env: Env, name: string, fallback: number): number {
  const value = int(env, name, fallback, 0);
  if (value > 100) throw new ConfigError(`${name} must be a percentage from 0 to 100, got "${env[name]}"`);
  return value;
}

function syncConfig(env: Env): SyncConfig {
  const sources: Record<string, SyncSourceConfig> = {};
  // Defaults of workers/ingest/shrink-guard.ts: a fifth of a register gone, a tenth of a file malformed.
  const shrink = { maxDeletePercent: percent(env, 'INGEST_MAX_SHRINK_PERCENT', 20), maxSkippedPercent: percent(env, 'INGEST_MAX_SKIPPED_PERCENT', 10) };
  for (const def of SYNC_SOURCES) {
    const name = syncEnvName(def.id);
    const configured = url(env, `SYNC_${name}_URL`, def.url);
    if (configured && def.downloads.length > 1 && !configured.includes('{file}')) {
      throw new ConfigError(`SYNC_${name}_URL must contain {file}: the source downloads ${def.downloads.length} files`);
    }
    sources[def.id] = {
      url: configured, enabled: bool(env, `SYNC_${name}_ENABLED`, true), intervalHours: int(env, `SYNC_${name}_INTERVAL_HOURS`, def.intervalHours, 1),
      maxDeletePercent: percent(env, `SYNC_${name}_MAX_SHRINK_PERCENT`, shrink.maxDeletePercent),
    };
  }
  return {
    shrink,
    heapGrowthPercent: int(env, 'INGEST_HEAP_GROWTH_PERCENT', 50, 0),
    enabled: bool(env, 'SYNC_ENABLED', false),
    sources,
    tickMs: int(env, 'SYNC_TICK_MS', 60_000, 100),
    timeoutMs: int(env, 'SYNC_TIMEOUT_MS', 600_000, 100),
    maxBytes: int(env, 'SYNC_MAX_BYTES', 512 * 1024 * 1024, 1024),
    maxUnpackedBytes: int(env, 'SYNC_MAX_UNPACKED_BYTES', 2 * 1024 * 1024 * 1024, 1024),
    retryBaseMs: int(env, 'SYNC_RETRY_BASE_MS', 300_000, 0),
    strict: bool(env, 'SYNC_STRICT', false),
    allowPrivateTargets: bool(env, 'SYNC_ALLOW_PRIVATE_TARGETS', false),
  };
}

/**
 * BYOL_MASTER_KEYS is `id:base64key[,id:base64key…]` (32-byte AES-256 keys); several ids let
 * old rows decrypt while `drugref byol rotate` re-seals them under BYOL_MASTER_KEY_ID
 * (default: the first id). Messages name the variable, never a key.
 */
function byolConfig(env: Env): Pick<Config, 'byolMasterKeys' | 'byolActiveKeyId' | 'byolBaseUrls' | 'byolTimeoutMs'> {
  const keys: Record<string, Buffer> = {};
  for (const entry of (env.BYOL_MASTER_KEYS ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    const [id, material, extra] = entry.split(':');
    if (!id || !material || extra !== undefined || !/^[A-Za-z0-9_-]{1,32}$/.test(id)) {
      throw new ConfigError('BYOL_MASTER_KEYS must be a comma list of <key id>:<base64 32-byte key>');
    }
    const key = Buffer.from(material, 'base64');
    if (key.length !== 32) throw new ConfigError(`BYOL_MASTER_KEYS key "${id}" must decode to 32 bytes`);
    if (keys[id]) throw new ConfigError(`BYOL_MASTER_KEYS lists key id "${id}" twice`);
    keys[id] = key;
  }
  const active = env.BYOL_MASTER_KEY_ID || Object.keys(keys)[0] || null;
  if (active && !keys[active]) throw new ConfigError(`BYOL_MASTER_KEY_ID "${active}" is not among BYOL_MASTER_KEYS`);
  return {
    byolMasterKeys: keys,
    byolActiveKeyId: active,
    byolBaseUrls: {
      drugbank: url(env, 'BYOL_DRUGBANK_BASE_URL', 'https://api.drugbank.com/v1') as string,
      fdb: url(env, 'BYOL_FDB_BASE_URL', 'https://api.fdbcloud.com/api/v1_4') as string,
      medispan: url(env, 'BYOL_MEDISPAN_BASE_URL', 'https://api.medispan.com/v1') as string,
    },
    byolTimeoutMs: int(env, 'BYOL_TIMEOUT_MS', 10_000, 1),
  };
}

/** A 32-byte key given as 64 hex characters or base64; null when unset. */
function key32(env: Env, name: string): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  const bytes = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (bytes.length !== 32) throw new ConfigError(`${name} must be 32 bytes as 64 hex characters or base64 (e.g. openssl rand -hex 32)`);
  return raw;
}

/**
 * Receipt keys: RECEIPT_SIGNING_KEY (PKCS8 PEM or private JWK) signs; rotating means moving
 * its public JWK into RECEIPT_PREVIOUS_PUBLIC_KEYS (a JWKS or JSON array) and setting a new
 * signing key. Parsed here so a bad key fails the start; messages never quote key material.
 */
function receiptConfig(env: Env): Pick<Config, 'receiptSigningKey' | 'receiptPreviousKeys' | 'receiptIssuer'> {
  const read = <T>(name: string, parse: (text: string) => T): T => {
    try { return parse(env[name]!); } catch (error) {
      throw new ConfigError(`${name}: ${error instanceof ReceiptKeyError ? error.message : 'invalid key'}`);
    }
  };
  return {
    receiptSigningKey: env.RECEIPT_SIGNING_KEY ? read('RECEIPT_SIGNING_KEY', (t) => parsePrivateKey(t)) : null,
    receiptPreviousKeys: env.RECEIPT_PREVIOUS_PUBLIC_KEYS ? read('RECEIPT_PREVIOUS_PUBLIC_KEYS', (t) => parsePublicKeys(t)) : [],
    receiptIssuer: env.RECEIPT_ISSUER || 'drugref',
  };
}

/** A token shorter than this is too easy to guess to guard anything. */
const METRICS_TOKEN_MIN_LENGTH = 16;

/** How `/metrics` is protected: a bearer token and/or a listener of its own. */
function metricsConfig(env: Env): Pick<Config, 'metricsToken' | 'metricsPort'> {
  const token = env.METRICS_TOKEN || null;
  if (token !== null && token.length < METRICS_TOKEN_MIN_LENGTH) {
    throw new ConfigError(`METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters`);
  }
  const port = env.METRICS_PORT ? int(env, 'METRICS_PORT', 0, 1) : null;
  if (port !== null && port > 65_535) throw new ConfigError(`METRICS_PORT must be a port number (1-65535), got "${env.METRICS_PORT}"`);
  return { metricsToken: token, metricsPort: port };
}

/** Read replicas of DATABASE_URL: comma-separated URLs, the lag bound and the check interval. */
function replicaConfig(env: Env): Pick<Config, 'databaseReplicaUrls' | 'databaseReplicaMaxLagMs' | 'databaseReplicaCheckMs'> {
  const urls = (env.DATABASE_REPLICA_URLS ?? '').split(',').map((u) => u.trim()).filter(Boolean);
  if (urls.length && !env.DATABASE_URL) throw new ConfigError('DATABASE_REPLICA_URLS needs DATABASE_URL: the embedded database has no replicas');
  return {
    databaseReplicaUrls: urls.map((u, i) => url({ [`DATABASE_REPLICA_URLS[${i}]`]: u }, `DATABASE_REPLICA_URLS[${i}]`, null) as string),
    databaseReplicaMaxLagMs: int(env, 'DATABASE_REPLICA_MAX_LAG_MS', 5_000, 0),
    databaseReplicaCheckMs: int(env, 'DATABASE_REPLICA_CHECK_MS', 1_000, 50),
  };
}

/** Reads and validates the environment. Throws with the offending variable's name. */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = env.DATA_DIR || './.data';
  return {
    host: env.HOST || '0.0.0.0',
    port: int(env, 'PORT', 3000),
    databaseUrl: url(env, 'DATABASE_URL', null),
    ...replicaConfig(env),
    dataDir: dataDir === 'memory://' ? dataDir : resolve(dataDir),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    role: oneOf(env, 'ROLE', ['all', 'api', 'worker'] as const, 'all'),
    keyCacheTtlMs: int(env, 'KEY_CACHE_TTL_MS', 30_000),
    publicRateLimitPerMinute: int(env, 'PUBLIC_RATE_LIMIT_PER_MINUTE', 60, 1),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024),
    upgradeUrl: url(env, 'UPGRADE_URL', 'https://drugref.example/pricing#upgrade') as string,
    pricingUrl: url(env, 'PRICING_URL', 'https://drugref.example/pricing') as string,
    demo: bool(env, 'DEMO', true),
    webhookSecretKey: key32(env, 'WEBHOOK_SECRET_KEY'),
    webhookIntervalMs: int(env, 'WEBHOOK_INTERVAL_MS', 60_000, 100),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100),
    webhookBatchCap: int(env, 'WEBHOOK_BATCH_CAP', 500, 1),
    webhookAllowPrivateTargets: bool(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    ...byolConfig(env),
    modelBaseUrl: url(env, 'MODEL_BASE_URL', null),
    modelName: env.MODEL_NAME || 'gpt-4o-mini',
    modelApiKey: env.MODEL_API_KEY || null,
    modelTimeoutMs: int(env, 'MODEL_TIMEOUT_MS', 60_000, 1),
    paymentBaseUrl: url(env, 'PAYMENT_BASE_URL', 'https://api.stripe.com') as string,
    paymentSecretKey: env.PAYMENT_SECRET_KEY || null,
    paymentWebhookSecret: env.PAYMENT_WEBHOOK_SECRET || null,
    checkoutSuccessUrl: url(env, 'CHECKOUT_SUCCESS_URL', 'https://drugref.example/console/chat?checkout=success') as string,
    checkoutCancelUrl: url(env, 'CHECKOUT_CANCEL_URL', 'https://drugref.example/pricing') as string,
    ...receiptConfig(env),
    upstream: upstreamConfig(env),
    sync: syncConfig(env),
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', null)?.replace(/\/+$/, '') ?? null,
    consoleSessionTtlSeconds: int(env, 'CONSOLE_SESSION_TTL_SECONDS', 1_800, 60),
    ssoAllowPrivateIssuers: bool(env, 'SSO_ALLOW_PRIVATE_ISSUERS', false),
    ...metricsConfig(env),
  };
}

/** A config for tests: in-memory database, silent logs, overridable fields. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'silent', DEMO: 'false' }), ...overrides };
}

export { ConfigError };
