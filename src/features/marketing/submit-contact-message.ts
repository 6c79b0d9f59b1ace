import { sendEmail } from '../../backend/functions.ts';
import { supabase } from '../../backend/supabase.ts';
import { CONTACT_MESSAGE_MAX, SUPPORT_EMAIL } from './marketing-constants.ts';
import { cutText } from '../../domain/storable-text.ts';

export interface ContactMessage {
  name: string;
  email: string;
  message: string;
}

/** Trims the fields and cuts the message to its maximum length (docs/product.md, Validation). */
export function normaliseContactMessage(input: ContactMessage): ContactMessage {
  return {
    name: input.name.trim(),
    email: input.email.trim(),
    message: cutText(input.message.trim(), CONTACT_MESSAGE_MAX),
  };
}

/** Stored, or not: `throttled` holds the server's plain message when there were too many (HTTP 429). */
export type ContactResult = { stored: true } | { stored: false; throttled?: string };

/**
 * Stores a contact message, then mails it to support (docs/product.md, Server calls). The mail never blocks or
 * fails the submit, since the message is kept anyway.
 */
export async function submitContactMessage(contact: ContactMessage): Promise<ContactResult> {
  try {
    const { error, status } = await supabase.rpc('submit_contact_message', {
      p_name: contact.name,
      p_email: contact.email,
      p_message: contact.message,
    });
    if (error) {
      const throttled = status === 429 || error.hint === 'throttled';
      return throttled && error.message ? { stored: false, throttled: error.message } : { stored: false };
    }
  } catch {
    return { stored: false };
  }
  void sendEmail({
    to: SUPPORT_EMAIL,
    subject: `Contact form: ${contact.name}`,
    body: `Name: ${contact.name}\nEmail: ${contact.email}\n\nMessage:\n${contact.message}`,
  });
  return { stored: true };
}
