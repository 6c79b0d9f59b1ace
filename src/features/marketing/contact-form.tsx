import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../ui/button.tsx';
import { CONTACT_MESSAGE_MAX, CONTACT_MIN_FILL_MS } from './marketing-constants.ts';
import { normaliseContactMessage, submitContactMessage } from './submit-contact-message.ts';
import { cutText, isStorableText, unstorableTextMessage } from '../../domain/storable-text.ts';

export interface ContactFormProps {
  /** The clock, in milliseconds; injectable for tests. */
  now?: () => number;
}

type Status = 'idle' | 'sending' | 'sent';

const SENT_TEXT = 'Thanks! Your message has been sent.';
const FAILED_TEXT = 'We could not send your message. Please try again.';
const MISSING_TEXT = 'Please fill in your name, email and message.';

const inputClass =
  'mt-1 block w-full rounded-lg border border-slate-400 bg-surface px-3 py-2 text-slate-900 ' +
  'focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30';
const labelClass = 'block text-sm font-medium text-slate-900';

/**
 * The contact form (docs/product.md, Public pages; Validation). A filled trap field, or a submit sooner than
 * 1.2 seconds after the form appeared, is treated as success with nothing sent.
 */
export function ContactForm({ now = () => Date.now() }: ContactFormProps) {
  const [mountedAt] = useState(() => now());
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [trap, setTrap] = useState('');
  const [status, setStatus] = useState<Status>('idle');
  const [error, setError] = useState<string | null>(null);
  const sentRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (status === 'sent') sentRef.current?.focus();
  }, [status]);

  if (status === 'sent') {
    return (
      <p
        ref={sentRef}
        role="status"
        tabIndex={-1}
        className="rounded-xl border border-emerald-200 dark:border-emerald-800 bg-emerald-50 dark:bg-emerald-950/40 p-6 text-lg font-medium text-emerald-900 dark:text-emerald-100 focus:outline-none"
      >
        {SENT_TEXT}
      </p>
    );
  }

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status === 'sending') return;
    if (trap !== '' || now() - mountedAt < CONTACT_MIN_FILL_MS) {
      setStatus('sent'); // treated as spam: silently pretend it went through
      return;
    }
    const contact = normaliseContactMessage({ name, email, message });
    if (!contact.name || !contact.email || !contact.message) {
      setError(MISSING_TEXT);
      return;
    }
    // Text the database cannot store would only fail on the server: said here, with the field.
    const unstorable = (['name', 'email', 'message'] as const).find((field) => !isStorableText(contact[field]));
    if (unstorable) {
      setError(unstorableTextMessage(unstorable));
      return;
    }
    setError(null);
    setStatus('sending');
    const result = await submitContactMessage(contact);
    if (result.stored) {
      setStatus('sent');
    } else {
      setError(result.throttled ?? FAILED_TEXT);
      setStatus('idle');
    }
  };

  const sending = status === 'sending';

  return (
    <form onSubmit={onSubmit} className="relative space-y-5" aria-busy={sending}>
      <div>
        <label htmlFor="contact-name" className={labelClass}>
          Name
        </label>
        <input
          id="contact-name"
          name="name"
          type="text"
          autoComplete="name"
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor="contact-email" className={labelClass}>
          Email
        </label>
        <input
          id="contact-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor="contact-message" className={labelClass}>
          Message
        </label>
        <textarea
          id="contact-message"
          name="message"
          required
          rows={6}
          maxLength={CONTACT_MESSAGE_MAX}
          aria-describedby="contact-message-count"
          value={message}
          onChange={(e) => setMessage(cutText(e.target.value, CONTACT_MESSAGE_MAX))}
          className={inputClass}
        />
        <p id="contact-message-count" className="mt-1 text-right text-sm text-slate-600">
          {message.length}/{CONTACT_MESSAGE_MAX} characters
        </p>
      </div>
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor="contact-website">Website (leave this empty)</label>
        <input
          id="contact-website"
          name="website"
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={trap}
          onChange={(e) => setTrap(e.target.value)}
        />
      </div>
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      <Button type="submit" disabled={sending} className="px-6 py-3 text-base">
        {sending ? 'Sending…' : 'Send message'}
      </Button>
    </form>
  );
}
