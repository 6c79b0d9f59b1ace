/** The username remembered in local storage (docs/product.md, Records, Local storage). */
const KEY = 'lb_username';

export function rememberedUsername(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function rememberUsername(username: string | null): void {
  try {
    if (username) localStorage.setItem(KEY, username);
    else localStorage.removeItem(KEY);
  } catch {
    // Storage may be unavailable (private mode); the username is only a convenience.
  }
}
