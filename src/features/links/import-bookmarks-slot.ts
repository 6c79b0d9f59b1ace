/**
 * 'Import bookmarks' in the empty states of My Links. The import is the transfer
 * feature's, and features never import each other: the app fills this slot
 * (src/app/slots.tsx). Without it the empty states show no import button.
 */
import { createContext, type ReactNode } from 'react';

/** Renders the 'Import bookmarks' button (it opens the import dialog); null where no app fills the slot. */
export const ImportBookmarksSlot = createContext<(() => ReactNode) | null>(null);
