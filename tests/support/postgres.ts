/** The same server as `base`, another database. */
export function databaseUrl(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Where CREATE/DROP DATABASE run: the database named in DATABASE_URL itself. */
export function adminUrl(base: string): string {
  return base;
}
