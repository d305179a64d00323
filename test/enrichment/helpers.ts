/**
 * An app whose every enrichment source points at one local fake upstream, with an
 * advancing clock so tests can age the cache past a source's TTL.
 */
import { testConfig } from '../../platform/config.ts';
import type { UpstreamConfig } from '../../platform/config.ts';
import { UpstreamClient } from '../../platform/upstream/client.ts';
import { HTTP_SOURCES } from '../../platform/upstream/sources.ts';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { FakeUpstream } from '../fakes/upstream-server.ts';
import '../../resolvers/enrichment/upstream.ts';

export interface EnrichmentTestApp extends TestApp {
  fake: FakeUpstream;
  upstream: UpstreamClient;
  /** What the upstream client logged (upstream detail belongs here, never in answers). */
  upstreamLogs: string[];
  /** Moves the app's clock forward. */
  advance(ms: number): void;
  key(options?: Parameters<TestApp['key']>[0]): Promise<string>;
}

/** Upstream config with every HTTP source on the fake; retries kept fast. */
export function fakeUpstreamConfig(fake: FakeUpstream, change: (c: UpstreamConfig) => void = () => undefined): UpstreamConfig {
  const config = structuredClone(testConfig().upstream);
  for (const id of HTTP_SOURCES) config.sources[id].baseUrl = fake.base(id);
  config.retries = 1;
  config.retryBaseMs = 1;
  config.timeoutMs = 2_000;
  change(config);
  return config;
}

export async function startEnrichmentApp(change?: (c: UpstreamConfig) => void, fake?: FakeUpstream): Promise<EnrichmentTestApp> {
  const upstreamFake = fake ?? (await new FakeUpstream().start());
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const db = await openTestDatabase();
  const config = fakeUpstreamConfig(upstreamFake, change);
  const logs: string[] = [];
  const upstream = new UpstreamClient({ config, db, now, log: { fatal: () => undefined, error: () => undefined, warn: (o: unknown) => void logs.push(JSON.stringify(o)), info: () => undefined, debug: () => undefined, trace: () => undefined } as never });
  const t = await startTestApp({ db, now, config: { upstream: config }, services: { upstream } });
  return Object.assign(t, {
    fake: upstreamFake,
    upstream,
    upstreamLogs: logs,
    advance: (ms: number) => void (offset += ms),
    async close() {
      await t.app.close();
      await upstream.close();
      await upstreamFake.close();
      await db.close();
    },
  });
}
