/** Console test helpers: one-time sign-in tokens and console sessions through the real endpoints. */
import type { LightMyRequestResponse } from 'fastify';
import { issueLoginToken } from '../../resolvers/accounts/console-sessions.ts';
import type { TestApp } from '../helpers/app.ts';

export async function accountIdOf(t: TestApp, name: string): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>('SELECT id FROM accounts WHERE name = $1', [name]);
  if (!rows[0]) throw new Error(`no account ${name}`);
  return rows[0].id;
}

/** A one-time sign-in token, as `drugref console login` mints it. */
export async function loginToken(t: TestApp, account: string, now = new Date()): Promise<string> {
  return (await issueLoginToken(t.db, { accountId: await accountIdOf(t, account), via: 'cli' }, now)).token;
}

export function exchange(t: TestApp, token: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/console/api/session', payload: { token } });
}

/** Signs in through POST /console/api/session; returns the console token. */
export async function signIn(t: TestApp, account: string, now?: Date): Promise<string> {
  const res = await exchange(t, await loginToken(t, account, now));
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return res.json().console_token as string;
}

export function consoleAuth(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}
