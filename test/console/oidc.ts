/**
 * A real OpenID provider for the SSO tests: oidc-provider on loopback with one
 * confidential client, and a small browser stand-in that follows its redirects, keeps its
 * cookies and submits its development login and consent forms.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Requests the provider has received (to show a refused issuer was never contacted). */
  requests: () => number;
  close(): Promise<void>;
}

/** Starts the provider; anyone may log in with any name, which becomes `sub` and `email`. */
export async function startIdp(redirectUri: string): Promise<TestIdp> {
  let count = 0;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'drugref-console';
  const clientSecret = 'idp-client-secret-for-tests-only-0123456789';
  const provider = new Provider(issuer, {
    clients: [{
      client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri],
      grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
    }],
    // The login name is the subject; names starting "unverified" have an unverified e-mail.
    findAccount: async (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: id, email_verified: !id.startsWith('unverified') }),
    }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    cookies: { keys: ['test-cookie-signing-key'] },
    pkce: { required: () => true },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    count++;
    handle(req, res);
  });
  return {
    issuer, clientId, clientSecret,
    requests: () => count,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/**
 * Plays the browser at the provider from the authorization URL: logs in as `login` and
 * consents (or aborts when `abort`), until the provider redirects to `redirectUri`;
 * returns that callback URL.
 */
export async function browseProvider(authorizationUrl: string, redirectUri: string, login: string, options: { abort?: boolean } = {}): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let form: string | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { body: form } : {}),
    });
    for (const cookie of res.headers.getSetCookie()) {
      const pair = cookie.split(';')[0]!;
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUri)) return next;
      url = next.href;
      form = undefined;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`unexpected provider page (${res.status}): ${html.slice(0, 300)}`);
    if (options.abort) {
      url = new URL(`${action}/abort`, url).href;
      continue;
    }
    url = new URL(action, url).href;
    form = prompt === 'login' ? new URLSearchParams({ prompt, login, password: 'any' }).toString() : new URLSearchParams({ prompt }).toString();
  }
  throw new Error('the provider never redirected back');
}
