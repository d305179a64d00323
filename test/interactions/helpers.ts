/** A test app on a fresh database holding the demo catalogue and the demo interaction set. */
import { buildDemoSnapshots } from '../../data/demo/build.ts';
import { ingestSnapshots } from '../../workers/ingest/engine.ts';
import { loadDemoInteractions } from '../../workers/ingest/interactions.ts';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/db.ts';

export async function startInteractionApp(): Promise<TestApp> {
  const db = await openTestDatabase();
  await ingestSnapshots(db, buildDemoSnapshots());
  await loadDemoInteractions(db);
  const t = await startTestApp({ db });
  const close = t.close.bind(t);
  return Object.assign(t, { close: async () => { await close(); await db.close(); } });
}
