/** How the shell names the signed-in user (docs/product.md, Application shell). */
export interface DisplaySource {
  fullName?: string | null;
  username?: string | null;
  email?: string | null;
  /** The username remembered in local storage. */
  rememberedUsername?: string | null;
}

export function displayName(source: DisplaySource): string {
  return source.fullName?.trim() || 'Your Profile';
}

/**
 * The @handle: the profile's username, then the locally remembered one, then the part
 * of the e-mail before the @, then the word 'username'.
 */
export function displayHandle(source: DisplaySource): string {
  const handle =
    source.username?.trim() || source.rememberedUsername?.trim() || source.email?.split('@')[0]?.trim() || 'username';
  return `@${handle}`;
}
