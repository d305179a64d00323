/**
 * Console single sign-on for accounts whose tier holds the `sso` scope (enterprise):
 * start → the account's identity provider (code flow, PKCE S256, state, nonce) →
 * callback → the proven identity is mapped to the account (a verified e-mail in the
 * configured domain, or a listed subject) → a fresh one-time sign-in token, which the
 * browser exchanges like a CLI link. Every refusal is an SsoRefusal with a short code the
 * console shows; the reason behind it goes to the log only.
 */
import type { Config } from '../../platform/config.ts';
import type { Database, Queryable } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import { canSeal, VaultError } from '../../platform/crypto/vault.ts';
import type { Keyring } from '../../platform/crypto/vault.ts';
import { issueLoginToken, publicBaseUrl } from './console-sessions.ts';
import { authorizationRequest, exchangeCode, IdpError, withIdp } from './sso-client.ts';
import type { Identity, IdpPolicy } from './sso-client.ts';
import { loadSsoSettings, saveFlow, takeFlow } from './sso-config.ts';
import type { SsoSettings } from './sso-config.ts';
import { isTier, tierScopes } from './tiers.ts';
import type { Tier } from './tiers.ts';

/** The codes the console shows after `#error=` (docs/console.md). */
export type SsoErrorCode = 'sso_unavailable' | 'sso_not_enterprise' | 'sso_state_invalid' | 'sso_denied' | 'sso_not_allowed' | 'sso_failed';

/** A sign-in refused for a reason the browser may know by its code; `message` is for the log. */
export class SsoRefusal extends Error {
  override readonly name = 'SsoRefusal';
  constructor(readonly code: SsoErrorCode, message: string) {
    super(message);
  }
}

export interface SsoDeps {
  db: Database;
  config: Config;
  now: () => Date;
  log: Logger;
}

/** The redirect URI registered at the identity provider. */
export function ssoRedirectUri(config: Config): string {
  return `${publicBaseUrl(config)}/console/api/sso/callback`;
}

/** The vault keyring that seals SSO client secrets (the BYOL master keys). */
export function ssoKeyring(config: Config): Keyring {
  return { keys: config.byolMasterKeys, activeKeyId: config.byolActiveKeyId };
}

function policyOf(config: Config): IdpPolicy {
  return { allowPrivate: config.ssoAllowPrivateIssuers };
}

interface SsoAccount {
  id: string;
  name: string;
  tier: Tier;
}

async function accountWhere(db: Queryable, column: 'name' | 'id', value: string): Promise<SsoAccount | null> {
  const { rows } = await db.query<{ id: string; name: string; tier: string }>(
    `SELECT id, name, tier FROM accounts WHERE ${column === 'id' ? 'id = $1::uuid' : 'name = $1'}`,
    [value],
  );
  const row = rows[0];
  return row && isTier(row.tier) ? { id: row.id, name: row.name, tier: row.tier } : null;
}

/** The account's settings, or the refusal that stands for their absence. */
async function settingsFor(deps: SsoDeps, account: SsoAccount): Promise<SsoSettings> {
  if (!tierScopes(account.tier).has('sso')) {
    throw new SsoRefusal('sso_not_enterprise', `account ${account.name} is on the ${account.tier} tier, which has no sso scope`);
  }
  const ring = ssoKeyring(deps.config);
  if (!canSeal(ring)) throw new SsoRefusal('sso_unavailable', 'no vault master key is configured (BYOL_MASTER_KEYS)');
  try {
    const settings = await loadSsoSettings(deps.db, ring, account.id);
    if (!settings) throw new SsoRefusal('sso_unavailable', `account ${account.name} has no SSO configured`);
    return settings;
  } catch (err) {
    if (err instanceof VaultError) throw new SsoRefusal('sso_unavailable', `the client secret does not open: ${err.message}`);
    throw err;
  }
}

/** IdP failures become refusals: `denied` when the provider said no, `failed` otherwise. */
function refusalOf(err: unknown): unknown {
  if (err instanceof IdpError) return new SsoRefusal(err.denied ? 'sso_denied' : 'sso_failed', err.message);
  return err;
}

/** Starts a sign-in for an account by name: the URL to send the browser to. */
export async function startSso(deps: SsoDeps, accountName: string): Promise<URL> {
  const account = await accountWhere(deps.db, 'name', accountName);
  // Unknown and unconfigured accounts share one code, so names cannot be probed for SSO.
  if (!account) throw new SsoRefusal('sso_unavailable', 'no such account');
  const settings = await settingsFor(deps, account);
  const request = await withIdp(settings, policyOf(deps.config), (config) => authorizationRequest(config, ssoRedirectUri(deps.config)))
    .catch((err: unknown) => { throw refusalOf(err); });
  await saveFlow(deps.db, request.state, { accountId: account.id, codeVerifier: request.codeVerifier, nonce: request.nonce }, deps.now());
  return request.url;
}

/**
 * Who may sign in: a listed subject, or a verified e-mail whose domain is the configured
 * one (exactly, subdomains are other domains). Returns the label the session records, or null.
 */
export function mappedSubject(identity: Identity, settings: Pick<SsoSettings, 'emailDomain' | 'subjects'>): string | null {
  if (settings.subjects.includes(identity.sub)) return identity.email ?? identity.sub;
  if (settings.emailDomain && identity.email && identity.emailVerified) {
    const domain = identity.email.slice(identity.email.lastIndexOf('@') + 1).toLowerCase();
    if (domain === settings.emailDomain.toLowerCase()) return identity.email;
  }
  return null;
}

/**
 * Finishes a sign-in from the callback's query (`rawQuery` exactly as received, for the
 * code exchange): the one-time sign-in token the browser exchanges for a console token.
 */
export async function finishSso(deps: SsoDeps, state: string | undefined, rawQuery: string): Promise<string> {
  const flow = state ? await takeFlow(deps.db, state, deps.now()) : null;
  if (!state || !flow) throw new SsoRefusal('sso_state_invalid', 'unknown, used or expired state');
  const account = await accountWhere(deps.db, 'id', flow.accountId);
  if (!account) throw new SsoRefusal('sso_unavailable', 'the account no longer exists');
  const settings = await settingsFor(deps, account);
  const callbackUrl = new URL(ssoRedirectUri(deps.config));
  callbackUrl.search = rawQuery;
  const identity = await withIdp(settings, policyOf(deps.config), (config) =>
    exchangeCode(config, callbackUrl, { state, nonce: flow.nonce, codeVerifier: flow.codeVerifier }))
    .catch((err: unknown) => { throw refusalOf(err); });
  const subject = mappedSubject(identity, settings);
  if (!subject) throw new SsoRefusal('sso_not_allowed', `identity ${identity.sub} is not mapped to account ${account.name}`);
  const { token } = await issueLoginToken(deps.db, { accountId: account.id, via: 'sso', subject }, deps.now());
  deps.log.info({ account: account.name, subject }, 'console sso sign-in');
  return token;
}
