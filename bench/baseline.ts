/**
 * Child process of the same-SQL baseline (bench/baseline-app.ts) on BENCH_DB_URL, with the
 * drugref server's pool size; the orchestrator adds each recorded route over IPC.
 */
import { openDatabase } from '../platform/db.ts';
import { buildBaselineApp } from './baseline-app.ts';
import type { BaselineRoute } from './baseline-app.ts';
import { serveParent } from './processes.ts';

const db = await openDatabase({ url: process.env.BENCH_DB_URL!, max: Number(process.env.BENCH_POOL ?? 10) });
const { app, add } = await buildBaselineApp(db);
const url = await app.listen({ host: '127.0.0.1', port: 0 });
serveParent(async (m) => {
  if (m.type !== 'addRoute') throw new Error(`unknown request ${m.type}`);
  add(m.route as BaselineRoute);
  return {};
}, async () => {
  await app.close();
  await db.close();
});
process.send!({ type: 'ready', url });
