/**
 * Webhook subscriptions of one account: validation of url and events, creation with a
 * one-time secret sealed at rest, listing without secrets, tenant-scoped deletion.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Config } from '../../platform/config.ts';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError, validationError } from '../../platform/errors.ts';
import { checkTargetHost, systemResolver } from '../../platform/net/targets.ts';
import type { HostResolver } from '../../platform/net/targets.ts';
import { rootKey, sealSecret } from './keyring.ts';
import { CHANGE_EVENTS } from './records.ts';
import type { ChangeEvent } from './records.ts';

/** Events when the body names none (spec: the first three, recall is opt-in). */
export const DEFAULT_EVENTS: ChangeEvent[] = ['changes.insert', 'changes.update', 'changes.delete'];
/** Subscriptions per account (spec: not shown); each costs one POST a minute per worker cycle. */
export const MAX_SUBSCRIPTIONS_PER_ACCOUNT = 25;
/** Longest accepted URL; longer ones are almost certainly not an endpoint. */
export const MAX_URL_LENGTH = 2048;
/** Signing secret randomness (spec: 32 bytes), sent as 64 hex characters. */
const SECRET_BYTES = 32;

export interface Subscription {
  id: string;
  url: string;
  events: ChangeEvent[];
  createdAt: Date;
  /** Position delivered so far: the newest acknowledged change (or the creation time). */
  deliveredUntil: string;
}

export interface CreatedSubscription extends Subscription {
  secret: string;
}

declare module '../context.ts' {
  interface Services {
    /** DNS for the webhook target check; tests inject a fake so nothing reaches the internet. */
    resolveHost?: HostResolver;
  }
}

/** How creation checks a URL's target; `allowPrivate` is WEBHOOK_ALLOW_PRIVATE_TARGETS. */
export interface TargetPolicy {
  allowPrivate: boolean;
  resolve: HostResolver;
}

const problem = (message: string) => validationError(`url ${message}.`, [{ location: 'body', field: 'url', message }]);

async function checkUrl(raw: string, policy: TargetPolicy): Promise<string> {
  if (raw.length > MAX_URL_LENGTH) throw problem(`must be at most ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw problem('must be an absolute URL such as https://example.com/hooks/drugref');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw problem(`must use http or https, not ${parsed.protocol.replace(/:$/, '')}`);
  // Credentials in a URL end up in logs and listings; deliveries authenticate by their signature.
  if (parsed.username || parsed.password) throw problem('must not carry credentials (user:pass@); verify deliveries by their signature instead');
  // Refused up front so a tenant learns at once; delivery checks again because DNS can change.
  if (!policy.allowPrivate) {
    const reason = await checkTargetHost(parsed, policy.resolve);
    if (reason) throw problem(`${reason}; webhooks are delivered to public addresses only`);
  }
  return parsed.toString();
}

function checkEvents(events: readonly string[] | null | undefined): ChangeEvent[] {
  if (events === null || events === undefined) return DEFAULT_EVENTS;
  const allowed = CHANGE_EVENTS as readonly string[];
  const unknown = events.filter((e) => !allowed.includes(e));
  if (unknown.length) {
    throw validationError(`Unknown event(s) ${unknown.join(', ')}; allowed: ${CHANGE_EVENTS.join(', ')}.`, [
      { location: 'body', field: 'events', message: `allowed values: ${CHANGE_EVENTS.join(', ')}`, allowed: CHANGE_EVENTS },
    ]);
  }
  if (!events.length) throw validationError('events must name at least one event; omit it for the default set.', [{ location: 'body', field: 'events', message: 'must not be empty' }]);
  // Stored in the spec's order, without repeats, so listings read the same way every time.
  return CHANGE_EVENTS.filter((e) => events.includes(e));
}

interface SubscriptionRow {
  id: string;
  url: string;
  events: ChangeEvent[];
  created_at: Date;
  delivered_until: string;
}

const COLUMNS = `id, url, events, created_at,
  to_char(cursor_occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS delivered_until`;

function toSubscription(row: SubscriptionRow): Subscription {
  return { id: row.id, url: row.url, events: row.events, createdAt: row.created_at, deliveredUntil: row.delivered_until };
}

/** Creates a subscription; the plaintext secret exists only in the returned object. */
export async function createSubscription(
  db: Database,
  config: Config,
  accountId: string,
  input: { url: string; events?: readonly string[] | null },
  resolve: HostResolver = systemResolver,
): Promise<CreatedSubscription> {
  const url = await checkUrl(input.url, { allowPrivate: config.webhookAllowPrivateTargets, resolve });
  const events = checkEvents(input.events);
  const root = await rootKey(config, db);
  const id = randomUUID();
  const secret = randomBytes(SECRET_BYTES).toString('hex');
  return db.transaction(async (tx) => {
    // Lock the account so two concurrent creations cannot both pass the limit.
    await tx.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
    const count = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_subscriptions WHERE account_id = $1', [accountId]);
    if (count.rows[0]!.n >= MAX_SUBSCRIPTIONS_PER_ACCOUNT) {
      throw validationError(`An account may have at most ${MAX_SUBSCRIPTIONS_PER_ACCOUNT} webhook subscriptions; delete one first.`, [
        { location: 'body', field: null, message: `subscription limit ${MAX_SUBSCRIPTIONS_PER_ACCOUNT} reached` },
      ]);
    }
    const { rows } = await tx.query<SubscriptionRow>(
      `INSERT INTO webhook_subscriptions (id, account_id, url, events, secret_sealed, secret_key_ref)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [id, accountId, url, events, sealSecret(root, secret, id), root.ref],
    );
    return { ...toSubscription(rows[0]!), secret };
  });
}

/** The account's subscriptions, oldest first, without secrets. */
export async function listSubscriptions(db: Queryable, accountId: string): Promise<Subscription[]> {
  const { rows } = await db.query<SubscriptionRow>(
    `SELECT ${COLUMNS} FROM webhook_subscriptions WHERE account_id = $1 ORDER BY created_at, id`,
    [accountId],
  );
  return rows.map(toSubscription);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Deletes one of the account's subscriptions; another account's id is `webhook_not_found`. */
export async function deleteSubscription(db: Queryable, accountId: string, id: string): Promise<void> {
  if (!UUID.test(id)) throw validationError('id must be a webhook id (uuid).', [{ location: 'query', field: 'id', message: 'must be a uuid' }]);
  const { rowCount } = await db.query('DELETE FROM webhook_subscriptions WHERE id = $1 AND account_id = $2', [id, accountId]);
  if (rowCount === 0) throw new ApiError('webhook_not_found', `No webhook subscription ${id} belongs to this account.`);
}
