/**
 * `drugref console login` (a one-time sign-in link) and `drugref console sso set|show|remove`
 * (an account's OpenID Connect provider). Arguments are parsed in cli/program.ts.
 */
import { loadConfig } from '../../platform/config.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db.ts';
import { canSeal } from '../../platform/crypto/vault.ts';
import { findAccount, issueLoginToken, LOGIN_TOKEN_TTL_MS, signInLink } from '../../resolvers/accounts/console-sessions.ts';
import type { ConsoleAccount } from '../../resolvers/accounts/console-sessions.ts';
import { checkIssuerUrl } from '../../resolvers/accounts/sso-client.ts';
import { removeSsoSettings, saveSsoSettings, ssoSummary } from '../../resolvers/accounts/sso-config.ts';
import { ssoKeyring, ssoRedirectUri } from '../../resolvers/accounts/sso.ts';
import { tierScopes } from '../../resolvers/accounts/tiers.ts';
import { openConfiguredDatabase } from '../database.ts';
import { linkConfig } from '../server-address.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);
const fail = (line: string) => process.stderr.write(`drugref: ${line}\n`);

async function withAccount(name: string, fn: (db: Database, account: ConsoleAccount, config: Config) => Promise<number>): Promise<number> {
  const config = loadConfig();
  const db = await openConfiguredDatabase(config);
  try {
    const account = await findAccount(db, name);
    if (!account) {
      fail(`no account named "${name}" (list them with: npx drugref accounts list)`);
      return 1;
    }
    // Links open the server beside this command when one holds the data folder.
    return await fn(db, account, await linkConfig(config));
  } finally {
    await db.close();
  }
}

/** `console login --account <name>`: prints a sign-in link that works once, for ten minutes. */
export async function consoleLogin(o: { account: string }): Promise<number> {
  return withAccount(o.account, async (db, account, config) => {
    const { token, expiresAt } = await issueLoginToken(db, { accountId: account.id, via: 'cli' }, new Date());
    out(`Sign-in link for account "${account.name}" (tier ${account.tier}); it works once, until ${expiresAt.toISOString()} (${LOGIN_TOKEN_TTL_MS / 60_000} minutes):`);
    out(signInLink(config, token));
    return 0;
  });
}

export interface SsoSetOptions {
  account: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  emailDomain?: string;
  subject?: string[];
}

/** `console sso set`: enterprise accounts only; the client secret is sealed with the vault keys. */
export async function ssoSet(o: SsoSetOptions): Promise<number> {
  if (!o.emailDomain && !o.subject?.length) {
    fail('say who may sign in: --email-domain <domain> and/or --subject <sub> (repeatable)');
    return 2;
  }
  return withAccount(o.account, async (db, account, config) => {
    if (!tierScopes(account.tier).has('sso')) {
      fail(`account "${account.name}" is on the ${account.tier} tier; console single sign-on needs the enterprise tier (scope sso)`);
      return 1;
    }
    const problem = checkIssuerUrl(o.issuer, { allowPrivate: config.ssoAllowPrivateIssuers });
    if (problem) {
      fail(`--issuer: ${problem}${config.ssoAllowPrivateIssuers ? '' : ' (SSO_ALLOW_PRIVATE_ISSUERS=true permits private addresses and http)'}`);
      return 2;
    }
    const ring = ssoKeyring(config);
    if (!canSeal(ring)) {
      fail('BYOL_MASTER_KEYS is empty: the client secret cannot be stored encrypted (docs/console.md)');
      return 1;
    }
    await saveSsoSettings(db, ring, account.id, {
      issuer: o.issuer, clientId: o.clientId, clientSecret: o.clientSecret, emailDomain: o.emailDomain ?? null, subjects: o.subject ?? [],
    });
    out(`Single sign-on set for account "${account.name}" with issuer ${o.issuer}.`);
    out(`Register this redirect URI at the identity provider: ${ssoRedirectUri(config)}`);
    out(`Sign-in starts at: ${ssoRedirectUri(config).replace(/callback$/, `start?account=${encodeURIComponent(account.name)}`)}`);
    return 0;
  });
}

/** `console sso show`: the settings without the secret. */
export async function ssoShow(o: { account: string }): Promise<number> {
  return withAccount(o.account, async (db, account, config) => {
    const summary = await ssoSummary(db, account.id);
    if (!summary) {
      out(`Account "${account.name}" has no single sign-on configured.`);
      return 0;
    }
    out(`issuer        ${summary.issuer}`);
    out(`client id     ${summary.clientId}`);
    out('client secret (sealed; never shown)');
    out(`email domain  ${summary.emailDomain ?? '-'}`);
    out(`subjects      ${summary.subjects.length ? summary.subjects.join(', ') : '-'}`);
    out(`redirect URI  ${ssoRedirectUri(config)}`);
    out(`updated       ${summary.updatedAt.toISOString()}`);
    return 0;
  });
}

/** `console sso remove`. */
export async function ssoRemove(o: { account: string }): Promise<number> {
  return withAccount(o.account, async (db, account) => {
    const removed = await removeSsoSettings(db, account.id);
    out(removed ? `Single sign-on removed from account "${account.name}".` : `Account "${account.name}" had no single sign-on configured.`);
    return 0;
  });
}
