/** Database names and URLs of the PostgreSQL test backend. */

/** Test databases of one run start with this, so the run's teardown finds its leftovers. */
export function runDatabasePrefix(runId: string): string {
  return `drugref_t_${runId}_`;
}

/** The same server, database swapped. */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
