/**
 * The console session: the console token lives only in this module's memory (no
 * localStorage, sessionStorage or cookie), so closing or reloading the tab signs out and
 * no other page or script of the origin can read it back. Every call to /console/api
 * sends it as a bearer token; a 401 ends the session.
 */

let session = null;
const listeners = new Set();

/** Called with the new session (or null) whenever it starts or ends. */
export function onSessionChange(listener) {
  listeners.add(listener);
}

function notify(reason) {
  for (const listener of listeners) listener(session, reason);
}

/** The signed-in account ({ name, tier }) or null. */
export function currentAccount() {
  return session ? session.account : null;
}

/** An API failure with the server's `error` code and `message` (shown verbatim). */
export class ApiFailure extends Error {
  constructor(status, body) {
    super(body && typeof body.message === 'string' ? body.message : `The server answered ${status}.`);
    this.status = status;
    this.code = body && typeof body.error === 'string' ? body.error : 'unknown';
    this.body = body;
  }
}

async function readBody(response) {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { error: 'unreadable', message: `The server answered ${response.status} with a body that is not JSON.` };
  }
}

async function request(method, path, body, token) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit', cache: 'no-store' });
  } catch {
    throw new ApiFailure(0, { error: 'network', message: 'The console could not reach the server. Check your connection and try again.' });
  }
  const parsed = await readBody(response);
  if (!response.ok) throw new ApiFailure(response.status, parsed);
  return parsed;
}

let expiryTimer = null;

/** Exchanges a one-time sign-in token for a console session. */
export async function signIn(loginToken) {
  const answer = await request('POST', '/console/api/session', { token: loginToken });
  session = { token: answer.console_token, expiresAt: answer.expires_at, account: answer.account };
  window.clearTimeout(expiryTimer);
  const ms = new Date(answer.expires_at).getTime() - Date.now();
  // setTimeout overflows past ~24.8 days; a console session is far shorter than that.
  if (Number.isFinite(ms) && ms > 0 && ms < 2 ** 31) expiryTimer = window.setTimeout(() => end('expired'), ms);
  notify('signed-in');
  return session.account;
}

function end(reason) {
  window.clearTimeout(expiryTimer);
  session = null;
  notify(reason);
}

/** Ends the session on the server (best effort) and in the page. */
export async function signOut() {
  const token = session?.token;
  end('signed-out');
  if (token) {
    try {
      await request('DELETE', '/console/api/session', undefined, token);
    } catch {
      // Already gone on the server (expired or revoked): the page forgot it either way.
    }
  }
}

/** Calls a console endpoint with the session's token; a 401 ends the session. */
export async function api(method, path, body) {
  if (!session) throw new ApiFailure(401, { error: 'unauthorized', message: 'Sign in first.' });
  try {
    return await request(method, path, body, session.token);
  } catch (err) {
    if (err instanceof ApiFailure && err.status === 401) end('unauthorized');
    throw err;
  }
}
