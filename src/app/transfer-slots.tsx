/**
 * The transfer feature's import and export, for the profile and links features' slots (issue 16):
 * loaded when first shown, so the screens' first download does not carry the parser and the
 * exporters. Both run against the signed-in user's database and mutation context.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { useCurrentUser } from '../backend/current-user-store.ts';
import { useUserDb } from '../data/user-db-context.ts';
import type { MutationContext } from '../data/mutation-context.ts';
import { mutationContextFor } from './sync/user-session.ts';

const ImportExportSection = lazy(async () => ({
  default: (await import('../features/transfer/import-export-section.tsx')).ImportExportSection,
}));
const ImportBookmarksButton = lazy(async () => ({
  default: (await import('../features/transfer/import-bookmarks-button.tsx')).ImportBookmarksButton,
}));

/** The signed-in user's database and mutation context, or null before they are known. */
function WithUserDb({
  children,
}: {
  children: (db: ReturnType<typeof useUserDb>['db'], ctx: MutationContext) => ReactNode;
}) {
  const { db } = useUserDb();
  const user = useCurrentUser((state) => state.user);
  if (!user) return null;
  return <Suspense fallback={null}>{children(db, mutationContextFor(user))}</Suspense>;
}

export const renderTransferSection = () => (
  <WithUserDb>{(db, ctx) => <ImportExportSection db={db} ctx={ctx} />}</WithUserDb>
);

export const renderImportButton = () => (
  <WithUserDb>{(db, ctx) => <ImportBookmarksButton db={db} ctx={ctx} variant="primary" />}</WithUserDb>
);
