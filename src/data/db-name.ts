/** The name of a user's local database (docs/sync-protocol.md, Client): its own module, so the boot can warm it without Dexie. */
export function dbName(userId: string): string {
  return `linkboard-${userId}`;
}
