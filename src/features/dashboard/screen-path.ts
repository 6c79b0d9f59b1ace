/** A workspace screen's path, scoped to the user as the sidebar links it: /{page}/{username}, or /{page}. */
export function screenPath(page: string, username: string | null, search = ''): string {
  return `${username ? `/${page}/${username}` : `/${page}`}${search}`;
}
