import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { EventRow } from '../../../src/data/rows.ts';
import { initialValues } from '../../../src/features/calendar/event-form-initial.ts';
import {
  eventFormSchema,
  planSave,
  START_IN_PAST,
  type EventFormValues,
  type SaveContext,
} from '../../../src/features/calendar/event-form.ts';
import { makeEvent } from '../../support/builders.ts';

const NOW = new Date('2026-03-15T12:00:00Z');
const zone = 'Europe/Berlin';

function context(): SaveContext {
  let n = 0;
  return { timeZone: zone, now: NOW, newId: () => `id-${++n}` };
}

function values(overrides: Partial<EventFormValues> = {}): EventFormValues {
  return {
    title: 'Standup',
    description: '',
    isTask: false,
    allDay: false,
    priority: 'medium',
    start: '2026-03-16T09:00',
    end: '2026-03-16T10:00',
    repeat: 'none',
    until: '',
    scope: 'single',
    reminder: '',
    ...overrides,
  };
}

function row(overrides: Partial<EventRow> = {}): EventRow {
  return makeEvent({
    id: 'e1',
    starts_at: '2026-03-16T08:00:00.000Z',
    ends_at: '2026-03-16T09:00:00.000Z',
    owner_id: 'u1',
    ...overrides,
  });
}

const check = (input: EventFormValues) => v.safeParse(eventFormSchema, input);
const firstIssue = (input: EventFormValues) => {
  const result = check(input);
  return result.success ? null : [v.getDotPath(result.issues[0]!), result.issues[0]!.message];
};

describe('the event form checks (docs/product.md, Validation)', () => {
  it('requires a title, a start for events, an end not before the start, and repeat-until with a rule', () => {
    expect(firstIssue(values({ title: '  ' }))).toEqual(['title', 'Title is required.']);
    expect(firstIssue(values({ start: '', end: '' }))).toEqual(['start', 'Start is required for events.']);
    expect(firstIssue(values({ end: '2026-03-16T08:00' }))).toEqual(['end', 'The end cannot be before the start.']);
    expect(firstIssue(values({ repeat: 'weekly' }))).toEqual([
      'until',
      'The repeat-until date is required when a rule is chosen.',
    ]);
    // A task needs no date, and its end and rule are not asked.
    expect(check(values({ isTask: true, start: '', end: '', repeat: 'weekly' })).success).toBe(true);
  });
});

describe('planSave', () => {
  it('creates an event in the user time zone, the description null when empty', () => {
    const plan = planSave(values(), null, context());
    expect(plan).toEqual({
      ok: true,
      kind: 'created',
      steps: [
        {
          name: 'event.create',
          args: {
            id: 'id-1',
            title: 'Standup',
            description: null,
            starts_at: '2026-03-16T08:00:00.000Z',
            ends_at: '2026-03-16T09:00:00.000Z',
            is_task: false,
            priority: null,
          },
        },
      ],
    });
  });

  it('gives a task without a date the current time as start and end, and sends end equal to start', () => {
    const undated = planSave(values({ isTask: true, start: '', end: '', priority: 'high' }), null, context());
    expect(undated.ok && undated.steps[0]!.args).toMatchObject({
      starts_at: NOW.toISOString(),
      ends_at: NOW.toISOString(),
      is_task: true,
      priority: 'high',
    });
    const dated = planSave(values({ isTask: true, end: '2026-03-20T10:00' }), null, context());
    expect(dated.ok && dated.steps[0]!.args).toMatchObject({
      starts_at: '2026-03-16T08:00:00.000Z',
      ends_at: '2026-03-16T08:00:00.000Z',
    });
  });

  it('refuses a new item starting before the current minute', () => {
    expect(planSave(values({ start: '2026-03-15T12:59', end: '' }), null, context())).toEqual({
      ok: false,
      field: 'start',
      error: START_IN_PAST,
    });
    // Editing an item that already lies in the past is allowed.
    expect(planSave(values({ start: '2026-03-01T09:00', end: '' }), row(), context()).ok).toBe(true);
  });

  it('expands a weekly rule into one series keeping 09:00 local across the DST change', () => {
    const plan = planSave(values({ repeat: 'weekly', until: '2026-04-06' }), null, context());
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.steps).toHaveLength(1);
    const [{ name, args }] = plan.steps as [{ name: string; args: { occurrences: { starts_at: string }[] } }];
    expect(name).toBe('series.create');
    expect(args).toMatchObject({ series_id: 'id-1', rule: 'weekly', until: '2026-04-06T21:59:00.000Z' });
    expect(args.occurrences.map((occurrence) => occurrence.starts_at)).toEqual([
      '2026-03-16T08:00:00.000Z',
      '2026-03-23T08:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
      '2026-04-06T07:00:00.000Z',
    ]);
  });

  it('refuses a series over 1,000 occurrences on the repeat-until field', () => {
    const plan = planSave(values({ repeat: 'daily', until: '2029-12-31' }), null, context());
    expect(plan).toMatchObject({ ok: false, field: 'until' });
  });

  it('updates a plain event, and turns it into a series (series first, then the old event goes)', () => {
    const update = planSave(values({ title: 'Daily' }), row(), context());
    expect(update.ok && update.steps.map((s) => s.name)).toEqual(['event.update']);
    expect(update.ok && update.steps[0]!.args).toMatchObject({ id: 'e1', title: 'Daily', is_task: false });
    const toSeries = planSave(values({ repeat: 'daily', until: '2026-03-18' }), row(), context());
    expect(toSeries.ok && toSeries.steps.map((s) => s.name)).toEqual(['series.create', 'event.delete']);
  });

  it('detaches one occurrence, or replaces the whole series with a new expanded set', () => {
    const member = row({ series_id: 's1', recurrence_rule: 'daily', recurrence_end_date: '2026-03-20T22:59:00Z' });
    const single = planSave(values({ title: 'Moved', repeat: 'daily', until: '2026-03-20' }), member, context());
    expect(single.ok && single.steps).toEqual([
      {
        name: 'occurrence.detach',
        args: {
          id: 'e1',
          title: 'Moved',
          description: null,
          starts_at: '2026-03-16T08:00:00.000Z',
          ends_at: '2026-03-16T09:00:00.000Z',
        },
      },
    ]);
    const all = planSave(
      values({ title: 'Renamed', repeat: 'daily', until: '2026-03-20', scope: 'all' }),
      member,
      context(),
    );
    if (!all.ok) throw new Error(all.error);
    expect(all.steps).toHaveLength(1);
    expect(all.steps[0]!.name).toBe('series.replace');
    expect(all.steps[0]!.args).toMatchObject({ old_series_id: 's1', series_id: 'id-1', rule: 'daily' });
    expect((all.steps[0]!.args as { occurrences: unknown[] }).occurrences).toHaveLength(5);
  });

  it('reads an item back into the form in the user time zone', () => {
    const member = row({ series_id: 's1', recurrence_rule: 'weekly', recurrence_end_date: '2026-04-06T21:59:00Z' });
    expect(initialValues(member, zone)).toMatchObject({
      start: '2026-03-16T09:00',
      end: '2026-03-16T10:00',
      repeat: 'weekly',
      until: '2026-04-06',
      scope: 'single',
    });
    expect(initialValues(null, zone, '2026-03-16T09:00')).toMatchObject({ end: '2026-03-16T10:00' });
  });

  it("starts a new item with the profile's default reminder and an item with its own", () => {
    expect(initialValues(null, zone, undefined, 15)).toMatchObject({ reminder: '15' });
    expect(initialValues(null, zone)).toMatchObject({ reminder: '' });
    expect(initialValues(row({ reminder_minutes: 0 }), zone, undefined, 15)).toMatchObject({ reminder: '0' });
    expect(initialValues(row(), zone, undefined, 15)).toMatchObject({ reminder: '' });
  });

  it('sends a new reminder with a create and every series, and only a changed one with an edit', () => {
    const argsOf = (plan: ReturnType<typeof planSave>) => (plan.ok ? plan.steps.map((s) => s.args) : []);
    expect(argsOf(planSave(values({ reminder: '5' }), null, context()))[0]).toMatchObject({ reminder_minutes: 5 });
    expect(argsOf(planSave(values(), null, context()))[0]).not.toHaveProperty('reminder_minutes');
    const series = argsOf(planSave(values({ reminder: '60', repeat: 'daily', until: '2026-03-18' }), null, context()));
    expect(series[0]).toMatchObject({ reminder_minutes: 60 });
    expect(argsOf(planSave(values({ reminder: '30' }), row(), context()))[0]).toMatchObject({ reminder_minutes: 30 });
    expect(argsOf(planSave(values({ reminder: '' }), row({ reminder_minutes: 30 }), context()))[0]).toMatchObject({
      reminder_minutes: null,
    });
    expect(
      argsOf(planSave(values({ reminder: '30' }), row({ reminder_minutes: 30 }), context()))[0],
    ).not.toHaveProperty('reminder_minutes');
    const member = row({ series_id: 's1', recurrence_rule: 'daily', recurrence_end_date: '2026-03-20T22:59:00Z' });
    const detach = argsOf(
      planSave(values({ reminder: '1440', repeat: 'daily', until: '2026-03-20' }), member, context()),
    );
    expect(detach[0]).toMatchObject({ reminder_minutes: 1440 });
  });

  it('saves all-day items as whole days in the zone, reads them back as dates, and sends all_day only when it changes', () => {
    // 27-28 Mar in Berlin: the clocks change in the night of the 29th, after the last day.
    const plan = planSave(
      values({ allDay: true, start: '2026-03-27T00:00', end: '2026-03-28T00:00' }),
      null,
      context(),
    );
    expect(plan.ok && plan.steps[0]!.args).toMatchObject({
      all_day: true,
      starts_at: '2026-03-26T23:00:00.000Z',
      ends_at: '2026-03-28T23:00:00.000Z',
    });
    const task = planSave(values({ allDay: true, isTask: true, start: '2026-03-27T00:00' }), null, context());
    expect(task.ok && task.steps[0]!.args).toMatchObject({
      all_day: true,
      starts_at: '2026-03-26T23:00:00.000Z',
      ends_at: '2026-03-26T23:00:00.000Z',
    });
    expect(planSave(values({ allDay: true, isTask: true, start: '', end: '' }), null, context())).toEqual({
      ok: false,
      field: 'start',
      error: 'An all-day item needs a date.',
    });
    // Today is all-day-able all day long; yesterday is not.
    expect(
      planSave(values({ allDay: true, start: '2026-03-15T00:00', end: '2026-03-15T00:00' }), null, context()).ok,
    ).toBe(true);
    expect(
      planSave(values({ allDay: true, start: '2026-03-14T00:00', end: '2026-03-14T00:00' }), null, context()),
    ).toMatchObject({
      ok: false,
      error: START_IN_PAST,
    });

    const stored = row({ all_day: true, starts_at: '2026-03-26T23:00:00.000Z', ends_at: '2026-03-28T23:00:00.000Z' });
    const form = initialValues(stored, zone);
    expect(form).toMatchObject({ allDay: true, start: '2026-03-27T00:00', end: '2026-03-28T00:00' });
    const unchanged = planSave({ ...form, title: 'Offsite' }, stored, context());
    expect(unchanged.ok && unchanged.steps[0]!.args).not.toHaveProperty('all_day');
    const timed = planSave(
      { ...form, allDay: false, start: '2026-03-27T09:00', end: '2026-03-27T17:00' },
      stored,
      context(),
    );
    expect(timed.ok && timed.steps[0]!.args).toMatchObject({ all_day: false, starts_at: '2026-03-27T08:00:00.000Z' });
  });
});
