/**
 * vitest globalSetup for real PostgreSQL (TEST_DATABASE_URL): drops databases left by an
 * earlier crashed run, builds a migrated template database, and removes it at the end.
 */
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../platform/db.ts';
import { prepareDemoTemplate, prepareTemplate } from './template.ts';
import { databaseUrl, TEMPLATE_DB } from './postgres.ts';

/** The migrated template plus the demo catalogue (`openTestDatabase({ demo: true })`). */
const DEMO_TEMPLATE_DB = `${TEMPLATE_DB}_demo`;

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is required for the postgres test project');
  const admin = await openDatabase({ url: url, max: 1 });
  const stale = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname = ANY($1) OR datname LIKE 'drugref_t\\_%'`, [[TEMPLATE_DB, DEMO_TEMPLATE_DB]]);
  for (const { datname } of stale.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${TEMPLATE_DB}"`);
  const template = await openDatabase({ url: databaseUrl(url, TEMPLATE_DB), max: 1 });
  await prepareTemplate(template);
  await template.close();
  await admin.query(`CREATE DATABASE "${DEMO_TEMPLATE_DB}" TEMPLATE "${TEMPLATE_DB}"`);
  const demo = await openDatabase({ url: databaseUrl(url, DEMO_TEMPLATE_DB), max: 1 });
  await prepareDemoTemplate(demo);
  await demo.close();
  project.provide('testDatabase', { backend: 'postgres', template: TEMPLATE_DB, demoTemplate: DEMO_TEMPLATE_DB });
  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${DEMO_TEMPLATE_DB}" WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DB}" WITH (FORCE)`);
    await admin.close();
  };
}
