/**
 * The directory's Team Polls tab is the polls feature's (its cards, its dialog), but it shows
 * inside the links screen, and features never import each other: the app fills this slot
 * (src/app/slots.tsx). Without it the tab shows nothing but its heading.
 */
import { createContext, type ReactNode } from 'react';
import type { Tier } from '../../domain/plans.ts';

export interface TeamPollsProps {
  directoryId: string;
  /** The directory owner's plan: team polls are a Team-plan feature of the directory. */
  tier: Tier;
  username: string;
  /** Whether the user may create polls here (the owner or a member of a Team directory). */
  canCreate: boolean;
}

/** Renders the panel for a directory; null where no app fills the slot. */
export const TeamPollsSlot = createContext<((props: TeamPollsProps) => ReactNode) | null>(null);
