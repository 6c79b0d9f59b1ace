/**
 * Finds e-mail addresses in rows as a user reads them (directly, or from sync_pull), for the
 * tests of who sees whose address (docs/product.md, "Who sees what").
 */
type Rows = Record<string, readonly Record<string, unknown>[]>;

const ADDRESS = /[^\s@"<>(),;:]+@[^\s@"<>(),;:]+\.[a-z]{2,}/gi;

/** Every address in a row, with the column it is in (nested values count for their column). */
export function addressesIn(row: Record<string, unknown>): { column: string; address: string }[] {
  const found: { column: string; address: string }[] = [];
  for (const [column, value] of Object.entries(row)) {
    for (const match of JSON.stringify(value ?? null).matchAll(ADDRESS)) {
      found.push({ column, address: match[0].toLowerCase() });
    }
  }
  return found;
}

/**
 * 'table.column: address' for every address in `rows` that is not the reader's own, except the
 * invitation addresses of directory_members (the members of a directory see each other's, as
 * intended).
 */
export function othersAddresses(readerEmail: string, rows: Rows): string[] {
  const own = readerEmail.toLowerCase();
  const out: string[] = [];
  for (const [table, list] of Object.entries(rows)) {
    for (const row of list) {
      for (const { column, address } of addressesIn(row)) {
        if (address === own || (table === 'directory_members' && column === 'user_email')) continue;
        out.push(`${table}.${column}: ${address}`);
      }
    }
  }
  return out;
}
