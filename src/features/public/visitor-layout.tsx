import { useEffect, type ReactNode } from 'react';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import { PublicLayout } from '../../ui/public-layout.tsx';

/**
 * The public site's frame around shared content (a public directory or profile): the logo
 * leads home; a visitor is asked to sign in or create a free account, a signed-in user is
 * offered their links.
 */
export function VisitorLayout({ children }: { children: ReactNode }) {
  const status = useCurrentUser((state) => state.status);
  const username = useCurrentUser((state) => state.user?.username ?? null);
  const ensureLoaded = useCurrentUser((state) => state.ensureLoaded);
  useEffect(() => {
    ensureLoaded().catch(() => undefined);
  }, [ensureLoaded]);
  const workspace = status === 'signed-in' ? (username ? `/Links/${username}` : '/Links') : null;
  return <PublicLayout visitor={{ workspace }}>{children}</PublicLayout>;
}
