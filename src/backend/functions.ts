import { supabase } from './supabase.ts';

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

/**
 * Sends a mail through the send-email function (spec 7.1): true when it was accepted;
 * otherwise a warning is logged and false returned. It never throws, so it never blocks
 * the caller.
 */
export async function sendEmail(mail: Mail): Promise<boolean> {
  try {
    const { error, response } = await supabase.functions.invoke('send-email', { body: mail });
    if (error) {
      console.warn(`SendEmail failed with status ${response?.status ?? 'unknown'}`);
      return false;
    }
    return true;
  } catch (error) {
    console.warn('SendEmail error', error);
    return false;
  }
}
