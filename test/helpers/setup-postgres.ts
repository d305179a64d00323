/**
 * vitest globalSetup for real PostgreSQL (TEST_DATABASE_URL): builds migrated template
 * databases named for this run, and drops them and this run's test databases at the end.
 * Names carry a run id so concurrent runs on one server never touch each other.
 */
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../platform/db.ts';
import { prepareDemoTemplate, prepareTemplate } from './template.ts';
import { databaseUrl, runDatabasePrefix } from './postgres.ts';

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is required for the postgres test project');
  const runId = randomBytes(4).toString('hex');
  const templateDb = `drugref_tpl_${runId}`;
  // The migrated template plus the demo catalogue (`openTestDatabase({ demo: true })`).
  const demoTemplateDb = `${templateDb}_demo`;
  const admin = await openDatabase({ url: url, max: 1 });
  await admin.query(`CREATE DATABASE "${templateDb}"`);
  const template = await openDatabase({ url: databaseUrl(url, templateDb), max: 1 });
  await prepareTemplate(template);
  await template.close();
  await admin.query(`CREATE DATABASE "${demoTemplateDb}" TEMPLATE "${templateDb}"`);
  const demo = await openDatabase({ url: databaseUrl(url, demoTemplateDb), max: 1 });
  await prepareDemoTemplate(demo);
  await demo.close();
  project.provide('testDatabase', { backend: 'postgres', template: templateDb, demoTemplate: demoTemplateDb, runId });
  return async () => {
    const left = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [runDatabasePrefix(runId)]);
    for (const { datname } of left.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS "${demoTemplateDb}" WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS "${templateDb}" WITH (FORCE)`);
    await admin.close();
  };
}
