// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const { rpc } = vi.hoisted(() => ({ rpc: vi.fn() }));

vi.mock('../../../src/backend/supabase.ts', () => ({ supabase: { rpc } }));
vi.mock('../../../src/backend/functions.ts');

import { sendEmail } from '../../../src/backend/functions.ts';
import { ContactForm } from '../../../src/features/marketing/contact-form.tsx';
import { SUPPORT_EMAIL } from '../../../src/features/marketing/marketing-constants.ts';

const SENT = 'Thanks! Your message has been sent.';

let clock = 0;
const now = () => clock;

function renderForm() {
  clock = 1_000_000;
  render(
    <MemoryRouter>
      <ContactForm now={now} />
    </MemoryRouter>,
  );
}

async function fillIn(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Name'), '  Ada Lovelace ');
  await user.type(screen.getByLabelText('Email'), ' ada@example.com ');
  fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'x'.repeat(4100) } });
}

beforeEach(() => {
  rpc.mockReset();
  vi.mocked(sendEmail).mockReset();
  vi.mocked(sendEmail).mockResolvedValue(true);
});

afterEach(cleanup);

describe('ContactForm', () => {
  it('labels every visible field and hides the trap field', () => {
    renderForm();
    expect(screen.getByLabelText('Name')).toBeRequired();
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Message')).toHaveAttribute('maxLength', '4000');
    const trap = document.querySelector<HTMLInputElement>('input[name="website"]')!;
    expect(trap).toHaveAttribute('tabIndex', '-1');
    expect(trap).toHaveAttribute('autoComplete', 'off');
    expect(trap.closest('[aria-hidden="true"]')).not.toBeNull();
  });

  it('treats a filled trap field as success without sending anything', async () => {
    const user = userEvent.setup();
    renderForm();
    await fillIn(user);
    fireEvent.change(document.querySelector('input[name="website"]')!, { target: { value: 'http://spam.test' } });
    clock += 5_000;
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText(SENT)).toBeInTheDocument();
    expect(rpc).not.toHaveBeenCalled();
    expect(sendEmail).not.toHaveBeenCalled();
  });

  it('treats a submit within 1.2 seconds of mounting as success without sending anything', async () => {
    const user = userEvent.setup();
    renderForm();
    await fillIn(user);
    clock += 1_199;
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText(SENT)).toBeInTheDocument();
    expect(rpc).not.toHaveBeenCalled();
    expect(sendEmail).not.toHaveBeenCalled();
  });

  it('stores trimmed values with the message cut to 4000 characters, then mails support', async () => {
    rpc.mockResolvedValue({ data: null, error: null });
    const user = userEvent.setup();
    renderForm();
    await fillIn(user);
    expect(screen.getByText('4000/4000 characters')).toBeInTheDocument();
    clock += 1_200;
    await user.click(screen.getByRole('button', { name: 'Send message' }));

    expect(await screen.findByText(SENT)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send message' })).not.toBeInTheDocument();
    expect(rpc).toHaveBeenCalledTimes(1);
    const [fn, args] = rpc.mock.calls[0]!;
    expect(fn).toBe('submit_contact_message');
    expect(args.p_name).toBe('Ada Lovelace');
    expect(args.p_email).toBe('ada@example.com');
    expect(args.p_message).toBe('x'.repeat(4000));
    expect(sendEmail).toHaveBeenCalledTimes(1);
    const mail = vi.mocked(sendEmail).mock.calls[0]![0];
    expect(mail.to).toBe(SUPPORT_EMAIL);
    expect(mail.to).toBe('support@linkboard.local');
    expect(mail.subject).toBe('Contact form: Ada Lovelace');
    expect(mail.body).toContain('Ada Lovelace');
    expect(mail.body).toContain('ada@example.com');
    expect(mail.body).toContain('x'.repeat(4000));
  });

  it('disables the submit button while sending', async () => {
    let resolve: (value: { data: null; error: null }) => void = () => {};
    rpc.mockReturnValue(new Promise((r) => (resolve = r)));
    const user = userEvent.setup();
    renderForm();
    await fillIn(user);
    clock += 2_000;
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(screen.getByRole('button', { name: 'Sending…' })).toBeDisabled();
    resolve({ data: null, error: null });
    expect(await screen.findByText(SENT)).toBeInTheDocument();
  });

  it('says which field holds a character that cannot be saved, sending nothing and keeping the text', async () => {
    for (const bad of ['Hello\u0000there', 'Cut emoji \ud83d here']) {
      const user = userEvent.setup();
      renderForm();
      await user.type(screen.getByLabelText('Name'), 'Ada');
      await user.type(screen.getByLabelText('Email'), 'ada@example.com');
      fireEvent.change(screen.getByLabelText('Message'), { target: { value: bad } });
      clock += 2_000;
      await user.click(screen.getByRole('button', { name: 'Send message' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'A character in message cannot be saved (a null character or half of an emoji). Remove it and try again.',
      );
      expect(screen.getByLabelText('Message')).toHaveValue(bad);
      expect(rpc).not.toHaveBeenCalled();
      expect(sendEmail).not.toHaveBeenCalled();
      cleanup();
    }
  });

  it('shows an inline error and keeps the typed text when the RPC fails', async () => {
    rpc.mockResolvedValue({ data: null, error: { message: 'boom' } });
    const user = userEvent.setup();
    renderForm();
    await fillIn(user);
    clock += 2_000;
    await user.click(screen.getByRole('button', { name: 'Send message' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('We could not send your message. Please try again.');
    expect(screen.getByLabelText('Name')).toHaveValue('  Ada Lovelace ');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com'); // email inputs strip surrounding spaces;
    expect(screen.getByLabelText('Message')).toHaveValue('x'.repeat(4000));
    expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled();
    expect(screen.queryByText(SENT)).not.toBeInTheDocument();
    expect(sendEmail).not.toHaveBeenCalled();
  });

  it("shows a throttled message's plain text (HTTP 429) instead, keeping the typed text", async () => {
    rpc.mockResolvedValue({
      data: null,
      error: { message: 'Too many messages. Please try again in an hour.', hint: 'throttled', code: '' },
      status: 429,
    });
    const user = userEvent.setup();
    renderForm();
    await fillIn(user);
    clock += 2_000;
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many messages. Please try again in an hour.');
    expect(screen.getByLabelText('Name')).toHaveValue('  Ada Lovelace ');
    expect(screen.queryByText(SENT)).not.toBeInTheDocument();
  });

  it('shows the same error when the RPC throws', async () => {
    rpc.mockRejectedValue(new Error('offline'));
    const user = userEvent.setup();
    renderForm();
    await fillIn(user);
    clock += 2_000;
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('We could not send your message. Please try again.'),
    );
  });
});

describe('normaliseContactMessage', async () => {
  const { normaliseContactMessage } = await import('../../../src/features/marketing/submit-contact-message.ts');

  it('trims every field and cuts the message to 4000 characters', () => {
    const result = normaliseContactMessage({ name: ' Bo ', email: ' bo@x.test\n', message: `\n ${'y'.repeat(4500)} ` });
    expect(result).toEqual({ name: 'Bo', email: 'bo@x.test', message: 'y'.repeat(4000) });
  });

  it('never cuts an emoji in half at the 4000th character (half of one cannot be stored)', () => {
    const result = normaliseContactMessage({ name: 'Bo', email: 'bo@x.test', message: `y${'😀'.repeat(2500)}` });
    expect(result.message).toBe(`y${'😀'.repeat(1999)}`);
  });
});
