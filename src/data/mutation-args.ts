/** Args of every mutation of the contract (docs/sync-protocol.md): absolute values only. */
import type { DirectoryColor, MemberRole, Priority, RecurrenceRule } from '../domain/validation.ts';
import type { MutationName } from '../domain/mutation-names.ts';

export interface Occurrence {
  id: string;
  title: string;
  description: string | null;
  starts_at: string;
  ends_at: string;
}

export interface MutationArgs {
  'profile.update': { username?: string | null; bio?: string | null; full_name?: string | null; time_zone?: string };
  'directory.create': {
    id: string;
    name: string;
    description?: string | null;
    color?: DirectoryColor;
    is_public?: boolean;
    password?: string | null;
  };
  'directory.update': {
    id: string;
    name?: string;
    description?: string | null;
    color?: DirectoryColor;
    is_public?: boolean;
    password?: string | null;
  };
  'directory.delete': { id: string };
  'link.create': {
    id: string;
    directory_id: string;
    url: string;
    title: string;
    notes?: string | null;
    description?: string | null;
    tags?: string[];
    is_favorite?: boolean;
  };
  'link.update': {
    id: string;
    url?: string;
    title?: string;
    notes?: string | null;
    description?: string | null;
    tags?: string[];
  };
  'link.delete': { id: string };
  'link.set_favorite': { id: string; value: boolean };
  'member.invite': { id: string; directory_id: string; user_email: string; role: MemberRole };
  'member.set_role': { id: string; role: MemberRole };
  'member.remove': { id: string };
  'event.create': {
    id: string;
    title: string;
    description?: string | null;
    starts_at: string | null;
    ends_at: string | null;
    is_task: boolean;
    priority?: Priority | null;
  };
  'event.update': {
    id: string;
    title?: string;
    description?: string | null;
    starts_at?: string | null;
    ends_at?: string | null;
    priority?: Priority | null;
  };
  'event.delete': { id: string };
  'task.set_completed': { id: string; value: boolean };
  'series.create': { series_id: string; rule: RecurrenceRule; until: string; occurrences: Occurrence[] };
  'series.replace': {
    old_series_id: string;
    series_id: string;
    rule: RecurrenceRule;
    until: string;
    occurrences: Occurrence[];
  };
  'series.delete': { series_id: string };
  'occurrence.detach': {
    id: string;
    title?: string;
    description?: string | null;
    starts_at?: string;
    ends_at?: string;
  };
  'poll.create': {
    id: string;
    title: string;
    description?: string | null;
    options: string[];
    deadline?: string | null;
    directory_id?: string | null;
  };
  'poll.vote': { id: string; post_id: string; option_index: number };
}

// Every contract name has args, and nothing else does.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const argsCoverContract: Exact<keyof MutationArgs, MutationName> = true;
