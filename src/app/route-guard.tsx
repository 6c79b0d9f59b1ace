import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useCurrentUser } from '../backend/current-user-store.ts';
import { isProtectedPath, isVisitorPath, pathUsername, redirectFor, type Viewer } from '../domain/route-rules.ts';

/** Whether the path's rules depend on who is signed in, so the user must be loaded. */
export function needsUser(path: string): boolean {
  return isProtectedPath(path) || isVisitorPath(path) || pathUsername(path) !== null || /^\/login\/?$/i.test(path);
}

/**
 * After the user renamed themselves, a path with the old username moves to the new one
 * instead of counting as someone else's page.
 */
export function followRename(path: string, target: string | null, former: string | null, current: string | null) {
  const inPath = pathUsername(path);
  if (target !== '/' || !former || !current || !inPath || inPath.toLowerCase() !== former.toLowerCase()) return target;
  const parts = path.split('/');
  const index = parts.findIndex((part, i) => i > 1 && part === inPath);
  if (index < 0) return target;
  parts[index] = current;
  return parts.join('/');
}

/** Applies the redirect and guard rules of docs/product.md, Route rules with history replace. */
export function RouteGuard() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const status = useCurrentUser((state) => state.status);
  const user = useCurrentUser((state) => state.user);
  const ensureLoaded = useCurrentUser((state) => state.ensureLoaded);
  const formerUsername = useCurrentUser((state) => state.formerUsername);

  const viewer: Viewer =
    status === 'signed-in' && user
      ? { status: 'signed-in', username: user.username }
      : status === 'signed-out'
        ? { status: 'signed-out' }
        : { status: 'loading' };

  useEffect(() => {
    if (needsUser(pathname)) void ensureLoaded();
  }, [pathname, ensureLoaded]);

  const target = followRename(pathname, redirectFor(pathname, viewer, search), formerUsername, user?.username ?? null);
  useEffect(() => {
    if (target && target !== pathname + search && target !== pathname) navigate(target, { replace: true });
  }, [target, pathname, search, navigate]);

  return <Outlet />;
}
