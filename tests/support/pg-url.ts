/** The same server as url, with another database name. */
export function databaseUrlFor(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** A connection to the server's maintenance database, for creating and dropping others. */
export function adminUrl(url: string): string {
  return databaseUrlFor(url, 'postgres');
}
