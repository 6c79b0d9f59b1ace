/**
 * The Profile screen's 'Import and export' section holds the transfer feature's import button and
 * export actions; features never import each other, so the app fills this slot
 * (src/app/slots.tsx). Without it the section is not shown.
 */
import { createContext, type ReactNode } from 'react';

/** Renders the section's content; null where no app fills the slot. */
export const TransferSlot = createContext<(() => ReactNode) | null>(null);
