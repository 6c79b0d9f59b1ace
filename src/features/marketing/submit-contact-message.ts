import { sendEmail } from '../../backend/functions.ts';
import { supabase } from '../../backend/supabase.ts';
import { CONTACT_MESSAGE_MAX, SUPPORT_EMAIL } from './marketing-constants.ts';

export interface ContactMessage {
  name: string;
  email: string;
  message: string;
}

/** Trims the fields and cuts the message to its maximum length (spec 5). */
export function normaliseContactMessage(input: ContactMessage): ContactMessage {
  return {
    name: input.name.trim(),
    email: input.email.trim(),
    message: input.message.trim().slice(0, CONTACT_MESSAGE_MAX),
  };
}

/**
 * Stores a contact message, then mails it to support (spec 7.1). True when the message
 * was stored; the mail never blocks or fails the submit, since the message is kept anyway.
 */
export async function submitContactMessage(contact: ContactMessage): Promise<boolean> {
  try {
    const { error } = await supabase.rpc('submit_contact_message', {
      p_name: contact.name,
      p_email: contact.email,
      p_message: contact.message,
    });
    if (error) return false;
  } catch {
    return false;
  }
  void sendEmail({
    to: SUPPORT_EMAIL,
    subject: `Contact form: ${contact.name}`,
    body: `Name: ${contact.name}\nEmail: ${contact.email}\n\nMessage:\n${contact.message}`,
  });
  return true;
}
