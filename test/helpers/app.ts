/**
 * A fresh app on a fresh database for one test file, with its logs captured so tests
 * can assert what was (and was not) logged.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../facades/app.ts';
import { testConfig } from '../../platform/config.ts';
import type { Config } from '../../platform/config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db.ts';
import { createKey } from '../../resolvers/accounts/keys.ts';
import type { Scope, Tier } from '../../resolvers/accounts/tiers.ts';
import type { Services } from '../../resolvers/context.ts';
import { openTestDatabase } from './db.ts';
import { fakeResolver } from './resolver.ts';
import { checkAnswers } from './response-check.ts';
import type { HostResolver } from '../../platform/net/targets.ts';

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  config: Config;
  /** Every log line written so far, raw JSON text. */
  logs: string[];
  /** Creates a key (and its account when new); returns the plaintext. */
  key(options?: { tier?: Tier; account?: string; scopes?: Scope[]; test?: boolean }): Promise<string>;
  close(): Promise<void>;
}

let accounts = 0;

export async function startTestApp(options: { config?: Partial<Config>; now?: Clock; db?: Database; services?: Services; resolveHost?: HostResolver } = {}): Promise<TestApp> {
  const db = options.db ?? (await openTestDatabase());
  const config = testConfig({ logLevel: 'info', ...options.config });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  // DNS never leaves the machine in tests: the fake answers from a fixed table.
  const app = await buildApp({ config, db, logStream, resolveHost: options.resolveHost ?? fakeResolver(), ...(options.now ? { now: options.now } : {}), ...(options.services ? { services: options.services } : {}) });
  const answers = checkAnswers(app);
  await app.ready();
  return {
    app,
    db,
    config,
    logs,
    async key({ tier = 'enterprise', account, scopes, test } = {}) {
      const created = await createKey(db, { account: account ?? `account-${++accounts}-${tier}`, tier, ...(scopes ? { scopes } : {}), ...(test ? { test } : {}) });
      return created.key;
    },
    async close() {
      await app.close();
      if (!options.db) await db.close();
      answers.assertNonePending();
    },
  };
}

export function bearer(key: string): { authorization: string } {
  return { authorization: `Bearer ${key}` };
}
