// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { Temporal } from 'temporal-polyfill';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { setDisplayLocale } from '../../../src/domain/date-format.ts';
import { readPlan } from '../../../src/domain/plain-words.ts';
import { isDayFirst, planPreviewText } from '../../../src/domain/plain-words-preview.ts';
import type { Tier } from '../../../src/domain/plans.ts';
import { EventDialog } from '../../../src/features/calendar/event-dialog.tsx';
import { planValues } from '../../../src/features/calendar/plan-values.ts';
import { spyUserDb } from '../../support/spy-user-db.ts';

let mutate: ReturnType<typeof vi.fn>;
beforeEach(() => {
  mutate = vi.fn().mockResolvedValue({ id: 'm1' });
  setDisplayLocale('en-GB');
});
afterEach(() => {
  cleanup();
});

const PARIS = 'Europe/Paris';
/** Wednesday 25 March 2026, 10:00 in Paris. */
const NOW = Date.parse('2026-03-25T09:00:00Z');

describe('a typed plan as the dialog fields', () => {
  it('knows the locales that write the day first', () => {
    expect(isDayFirst('en-GB')).toBe(true);
    expect(isDayFirst('fr-FR')).toBe(true);
    expect(isDayFirst('en-US')).toBe(false);
    expect(isDayFirst('ja-JP')).toBe(false);
  });

  it('fills a timed event, an all-day one and a task without a date', () => {
    const dentist = readPlan('Dentist tomorrow 15:30', { now: NOW, timeZone: PARIS });
    expect(planValues(dentist, PARIS, true)).toEqual({
      title: 'Dentist',
      isTask: false,
      allDay: false,
      priority: 'medium',
      start: '2026-03-26T15:30',
      end: '2026-03-26T16:30',
      repeat: 'none',
      until: '',
    });
    const holiday = readPlan('Holiday 24 Dec to 2 Jan', { now: NOW, timeZone: PARIS });
    expect(planValues(holiday, PARIS, true)).toMatchObject({
      allDay: true,
      start: '2026-12-24T00:00',
      end: '2027-01-02T00:00',
    });
    expect(planValues(readPlan('Buy milk p2', { now: NOW, timeZone: PARIS }), PARIS, true)).toMatchObject({
      isTask: true,
      priority: 'medium',
      start: '',
      end: '',
    });
  });

  it('fills a repeat only where the plan has series', () => {
    const gym = readPlan('Gym every tuesday 7am until 30 june', { now: NOW, timeZone: PARIS });
    expect(planValues(gym, PARIS, true)).toMatchObject({
      repeat: 'weekly',
      until: '2026-06-30',
      start: '2026-03-31T07:00',
    });
    expect(planValues(gym, PARIS, false)).toMatchObject({ repeat: 'none', until: '' });
  });

  it('previews the fields in the user zone and says what was not understood', () => {
    const standup = readPlan('Standup weekdays 9:30 until 31 March', { now: NOW, timeZone: PARIS });
    expect(planPreviewText(standup, PARIS, 'en-GB')).toEqual({
      rows: [
        { label: 'Type', value: 'Event' },
        { label: 'Title', value: 'Standup' },
        { label: 'When', value: '26 Mar 2026, 09:30 – 10:30' },
        { label: 'Read', value: "'9:30', 'until 31 March'" },
      ],
      notes: ["Repeats: not understood: 'weekdays'"],
    });
    const rent = readPlan('Pay rent every month on the 1st', { now: NOW, timeZone: PARIS });
    expect(planPreviewText(rent, PARIS, 'en-GB').rows).toContainEqual({
      label: 'Repeats',
      value: 'Monthly, choose a repeat-until date',
    });
    expect(planPreviewText(readPlan('Buy milk', { now: NOW, timeZone: PARIS }), PARIS).notes).toEqual([
      'No date found',
    ]);
  });
});

function renderDialog(tier: Tier, timeZone: string, plan?: string) {
  render(
    <MemoryRouter>
      <UserDbContext.Provider value={spyUserDb(mutate)}>
        <EventDialog
          item={null}
          tier={tier}
          timeZone={timeZone}
          screen="calendar"
          plan={plan}
          onClose={() => undefined}
        />
      </UserDbContext.Provider>
    </MemoryRouter>,
  );
}

describe("the dialog's 'Type a plan' field", () => {
  it('previews a phrase, fills the fields on Use this, and saves the series', async () => {
    const user = userEvent.setup();
    renderDialog('pro', PARIS);
    const field = await screen.findByLabelText('Type a plan');
    await user.type(field, 'Gym every tuesday 7am until 30 june 2030');
    const preview = screen.getByRole('status', { name: 'Plan preview' });
    expect(within(preview).getByTestId('plan-repeats')).toHaveTextContent('Weekly, until 30 Jun');
    await user.click(within(preview).getByRole('button', { name: 'Use this' }));
    expect(screen.getByLabelText('Title')).toHaveValue('Gym');
    expect(screen.getByLabelText('Start time')).toHaveValue('07:00');
    expect(screen.getByLabelText('Rule')).toHaveValue('weekly');
    expect(screen.getByLabelText('Repeat until')).toHaveValue('2030-06-30');
    expect(screen.queryByRole('status', { name: 'Plan preview' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add Event' }));
    expect(mutate).toHaveBeenCalledWith(
      'series.create',
      expect.objectContaining({ rule: 'weekly', occurrences: expect.any(Array) }),
      expect.any(Function),
    );
    const { occurrences } = mutate.mock.calls[0]![1] as { occurrences: { starts_at: string }[] };
    for (const { starts_at } of occurrences) {
      const local = Temporal.Instant.from(starts_at).toZonedDateTimeISO(PARIS);
      expect([local.dayOfWeek, local.hour, local.minute]).toEqual([2, 7, 0]);
    }
  });

  it('starts with a phrase typed in the command palette, previewed for the user to confirm', async () => {
    const user = userEvent.setup();
    renderDialog('pro', PARIS, 'Dentist tomorrow 15:30');
    expect(await screen.findByLabelText('Type a plan')).toHaveValue('Dentist tomorrow 15:30');
    const preview = screen.getByRole('status', { name: 'Plan preview' });
    expect(preview).toHaveTextContent('Dentist');
    // Nothing is filled until the user confirms.
    expect(screen.getByLabelText('Title')).toHaveValue('');
    await user.click(within(preview).getByRole('button', { name: 'Use this' }));
    expect(screen.getByLabelText('Title')).toHaveValue('Dentist');
    expect(screen.getByLabelText('Start time')).toHaveValue('15:30');
  });

  it('leaves the fields alone while the preview is ignored, and says a Free plan has no repeats', async () => {
    const user = userEvent.setup();
    renderDialog('free', PARIS);
    await user.type(await screen.findByLabelText('Type a plan'), 'Pay rent every month on the 1st');
    expect(screen.getByRole('status', { name: 'Plan preview' })).toHaveTextContent(
      'Recurring events are a Pro feature.',
    );
    expect(screen.getByLabelText('Title')).toHaveValue('');
    // Enter uses the plan instead of submitting the dialog.
    await user.type(screen.getByLabelText('Type a plan'), '{Enter}');
    expect(screen.getByLabelText('Title')).toHaveValue('Pay rent');
    expect(screen.getByRole('checkbox', { name: 'All day' })).toBeChecked();
    expect(mutate).not.toHaveBeenCalled();
  });
});
