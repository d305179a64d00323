/**
 * The OpenID Connect relying party of console SSO, on openid-client: discovery,
 * authorization URL with PKCE (S256), state and nonce, and the code exchange with ID token
 * validation (issuer, audience, expiry, nonce, and its signature against the issuer's
 * JWKS). Every request to the identity provider goes through the outbound address policy
 * of platform/net/targets.ts: public addresses only, unless SSO_ALLOW_PRIVATE_ISSUERS is
 * set (tests, an IdP on the company network), which also permits plain http.
 */
import * as oidc from 'openid-client';
import { Agent, fetch as undiciFetch } from 'undici';
import { checkLiteralHost, publicOnlyLookup } from '../../platform/net/targets.ts';

/** Deadline of one request to the identity provider. */
export const IDP_TIMEOUT_MS = 10_000;

/** What the relying party needs of an account's SSO configuration. */
export interface IdpClient {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface IdpPolicy {
  allowPrivate: boolean;
}

/** The identity provider could not be reached or answered something unusable. */
export class IdpError extends Error {
  override readonly name = 'IdpError';
  /** True when the provider itself refused (an `error` on the callback, e.g. access_denied). */
  readonly denied: boolean;
  constructor(message: string, denied = false) {
    super(message);
    this.denied = denied;
  }
}

/** An issuer URL the policy accepts: https, or http only when private issuers are allowed. */
export function checkIssuerUrl(issuer: string, policy: IdpPolicy): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'the issuer is not a URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowPrivate)) return 'the issuer must be an https URL';
  if (url.username || url.password) return 'the issuer URL must not carry credentials';
  if (!policy.allowPrivate && checkLiteralHost(issuer)) return 'the issuer is not a public address';
  return null;
}

/**
 * A fetch for openid-client bound to the address policy: a socket lookup that refuses
 * non-public answers, a literal-IP check (sockets skip the lookup for those) and a deadline.
 * openid-client never follows redirects (`redirect: 'manual'`), so every hop is checked here.
 */
function policyFetch(agent: Agent, policy: IdpPolicy): oidc.CustomFetch {
  return async (url, options) => {
    const blocked = policy.allowPrivate ? null : checkLiteralHost(url);
    if (blocked) throw new IdpError(blocked.message);
    const deadline = AbortSignal.timeout(IDP_TIMEOUT_MS);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    const response = await undiciFetch(url, { ...options, body: options.body as string | undefined, dispatcher: agent, signal });
    return response as unknown as Response;
  };
}

/** Runs `fn` with a discovered client configuration; the connection pool is closed afterwards. */
export async function withIdp<T>(client: IdpClient, policy: IdpPolicy, fn: (config: oidc.Configuration) => Promise<T>): Promise<T> {
  const problem = checkIssuerUrl(client.issuer, policy);
  if (problem) throw new IdpError(problem);
  const connect = { timeout: IDP_TIMEOUT_MS, ...(policy.allowPrivate ? {} : { lookup: publicOnlyLookup }) };
  const agent = new Agent({ connect, headersTimeout: IDP_TIMEOUT_MS, bodyTimeout: IDP_TIMEOUT_MS });
  try {
    const execute = [oidc.enableNonRepudiationChecks, ...(policy.allowPrivate ? [oidc.allowInsecureRequests] : [])];
    let config: oidc.Configuration;
    try {
      config = await oidc.discovery(new URL(client.issuer), client.clientId, undefined, oidc.ClientSecretBasic(client.clientSecret), {
        [oidc.customFetch]: policyFetch(agent, policy),
        execute,
      });
    } catch (err) {
      throw err instanceof IdpError ? err : new IdpError(`discovery failed: ${describe(err)}`);
    }
    return await fn(config);
  } finally {
    await agent.close();
  }
}

/** What a sign-in keeps server-side between start and callback. */
export interface AuthorizationRequest {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The authorization URL of a code flow with PKCE (S256), state and nonce. */
export async function authorizationRequest(config: oidc.Configuration, redirectUri: string): Promise<AuthorizationRequest> {
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email',
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url, state, nonce, codeVerifier };
}

/** The identity a finished sign-in proved: the ID token's claims, completed from userinfo. */
export interface Identity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
}

function identityOf(claims: Record<string, unknown>, sub: string): Identity {
  return {
    sub,
    email: typeof claims.email === 'string' ? claims.email : null,
    // Some providers send the boolean as a string.
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
  };
}

/**
 * Exchanges the callback's code (PKCE verifier, expected state and nonce) and validates the
 * ID token. When the ID token carries no e-mail (providers that keep claims for userinfo),
 * the userinfo endpoint is asked, bound to the ID token's subject.
 */
export async function exchangeCode(
  config: oidc.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<Identity> {
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    if (err instanceof oidc.AuthorizationResponseError) throw new IdpError(`the provider answered ${err.error}`, true);
    throw new IdpError(`code exchange failed: ${describe(err)}`);
  }
  const claims = tokens.claims();
  if (!claims) throw new IdpError('no ID token');
  let identity = identityOf(claims, claims.sub);
  if (!identity.email && tokens.access_token && config.serverMetadata().userinfo_endpoint) {
    try {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      identity = identityOf({ ...claims, ...info }, claims.sub);
    } catch (err) {
      throw new IdpError(`userinfo failed: ${describe(err)}`);
    }
  }
  return identity;
}

/** A short reason for logs: the error's name, code and message, never a token. */
function describe(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  return [e?.name, e?.code, e?.message, e?.cause?.code ?? e?.cause?.message].filter(Boolean).join(': ').slice(0, 300);
}
