/** vitest globalSetup for the embedded backend: one migrated PGlite, dumped to a file. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../platform/db.ts';
import { prepareDemoTemplate, prepareTemplate } from './template.ts';

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'drugref-pglite-'));
  const db = await openDatabase({ dataDir: 'memory://' });
  await prepareTemplate(db);
  const dump = await db.dump!();
  const file = join(dir, 'template.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  // The demo template continues from the migrated one, so it costs only the demo load.
  await prepareDemoTemplate(db);
  const demoFile = join(dir, 'template-demo.tar');
  await writeFile(demoFile, Buffer.from(await (await db.dump!()).arrayBuffer()));
  await db.close();
  project.provide('testDatabase', { backend: 'pglite', template: file, demoTemplate: demoFile });
  return async () => rm(dir, { recursive: true, force: true });
}
