/** Database names and URLs of the PostgreSQL test backend. */
export const TEMPLATE_DB = 'drugref_template';

/** The same server, database swapped. */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
