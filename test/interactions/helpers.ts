/**
 * A test app on a fresh database holding the demo substances and ATC tree, the Swiss demo
 * register (products and packs to resolve codes against) and the demo interaction set.
 * Only two of the 17 demo sources: enough for every reference kind, and fast on 2 cores.
 */
import { buildDemoSnapshots, DEMO_ATC_SOURCE_ID, demoSourceId } from '../../data/demo/build.ts';
import { ingestSnapshots } from '../../workers/ingest/engine.ts';
import { loadDemoInteractions } from '../../workers/ingest/interactions.ts';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/db.ts';
import type { Config } from '../../platform/config.ts';

export async function startInteractionApp(options: { config?: Partial<Config> } = {}): Promise<TestApp> {
  const db = await openTestDatabase();
  await ingestSnapshots(db, buildDemoSnapshots().filter((s) => [DEMO_ATC_SOURCE_ID, demoSourceId('CH')].includes(s.source.id)));
  await loadDemoInteractions(db);
  const t = await startTestApp({ db, ...(options.config ? { config: options.config } : {}) });
  const close = t.close.bind(t);
  return Object.assign(t, { close: async () => { await close(); await db.close(); } });
}
