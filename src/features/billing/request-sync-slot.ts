/**
 * After checkout the plan arrives with the next pull of the profile row (the billing webhook
 * sets it on the server). The sync engine is the app's and features never import the app, so
 * the app fills this slot with 'pull now' (the session's engine.sync; src/app/slots.tsx). Without
 * it the page still shows the new plan, with the engine's own next sync (on start, and every 30 s).
 */
import { createContext } from 'react';

export const RequestSyncSlot = createContext<(() => void) | null>(null);
