/** Whether a new username is free, asked before a rename is queued (docs/product.md, Validation; Error messages). */
export type UsernameCheck = 'available' | 'taken' | 'unknown';

/**
 * 'unknown' offline or when the check fails: the rename is then queued and the server decides.
 * supabase-js loads on the first check, outside the screen's first download.
 */
export async function checkUsername(username: string): Promise<UsernameCheck> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return 'unknown';
  try {
    const { supabase } = await import('../../backend/supabase.ts');
    const { data, error } = await supabase.rpc('username_available', { p_username: username });
    if (error) return 'unknown';
    return data === true ? 'available' : 'taken';
  } catch {
    return 'unknown';
  }
}
