import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  emptyPollForm,
  hasEnoughOptions,
  isDeadlineAllowed,
  pollArgs,
  pollFormSchema,
  type PollFormValues,
} from '../../../src/features/polls/poll-form.ts';

const now = new Date('2030-05-01T12:00:00Z');
const ctx = { timeZone: 'Europe/Berlin', now: () => now };
const schema = pollFormSchema(ctx);
const opts = (...texts: string[]) => texts.map((text) => ({ text }));

function problems(values: Partial<PollFormValues>): Record<string, string[]> {
  const result = v.safeParse(schema, { ...emptyPollForm(), title: 'Lunch?', options: opts('a', 'b'), ...values });
  const flat = result.success ? {} : (v.flatten<typeof schema>(result.issues).nested ?? {});
  return flat as Record<string, string[]>;
}

describe('the poll form', () => {
  it('accepts a title and two options, trimming the title', () => {
    const result = v.safeParse(schema, { ...emptyPollForm(), title: '  Lunch? ', options: opts('a', 'b') });
    expect(result.success).toBe(true);
    expect(result.output).toMatchObject({ title: 'Lunch?' });
  });

  it('requires a title', () => {
    expect(problems({ title: '   ' })).toEqual({ title: ['Title is required.'] });
  });

  it('needs the first two options filled, and 2 to 6 rows', () => {
    const message = ['Please provide at least 2 voting options'];
    expect(problems({ options: opts('a', '') })).toEqual({ options: message });
    expect(problems({ options: opts('', 'b', 'c') })).toEqual({ options: message });
    expect(problems({ options: opts(' ', 'b') })).toEqual({ options: message });
    expect(problems({ options: opts('a') })).toEqual({ options: message });
    expect(problems({ options: opts('1', '2', '3', '4', '5', '6', '7') })).toEqual({ options: message });
    expect(problems({ options: opts('a', 'b', '', '') })).toEqual({});
    expect(problems({ options: opts('1', '2', '3', '4', '5', '6') })).toEqual({});
  });

  it('limits an option to 200 characters', () => {
    expect(problems({ options: opts('a', 'x'.repeat(201)) })).toEqual({
      'options.1.text': ['An option can be at most 200 characters.'],
    });
  });

  it('reports every field at once', () => {
    expect(Object.keys(problems({ title: '', options: opts('a', ''), deadline: '2030-05-01T13:59' }))).toEqual([
      'title',
      'options',
      'deadline',
    ]);
  });

  it("takes no deadline, or one after now in the user's zone", () => {
    // 12:00 UTC is 14:00 in Berlin.
    expect(isDeadlineAllowed('', ctx)).toBe(true);
    expect(isDeadlineAllowed('2030-05-01T14:01', ctx)).toBe(true);
    expect(isDeadlineAllowed('2030-05-01T14:00', ctx)).toBe(false);
    expect(isDeadlineAllowed('2030-05-01T13:59', ctx)).toBe(false);
    expect(isDeadlineAllowed('tomorrow', ctx)).toBe(false);
    expect(problems({ deadline: '2030-05-01T13:00' })).toEqual({
      deadline: ['The deadline cannot be earlier than now.'],
    });
  });

  it('counts options as docs/product.md does', () => {
    expect(hasEnoughOptions(opts('a', 'b'))).toBe(true);
    expect(hasEnoughOptions(opts('a', '', 'c'))).toBe(false);
  });
});

describe('pollArgs', () => {
  it('sends trimmed options without empty rows, the deadline as an instant and no empty description', () => {
    expect(
      pollArgs(
        {
          title: 'Lunch?',
          description: '  ',
          options: opts(' Pizza ', 'Sushi', '', ' Tacos'),
          deadline: '2030-05-02T09:30',
        },
        { timeZone: 'Europe/Berlin', id: 'p1' },
      ),
    ).toEqual({
      id: 'p1',
      title: 'Lunch?',
      description: null,
      options: ['Pizza', 'Sushi', 'Tacos'],
      deadline: '2030-05-02T07:30:00.000Z',
    });
  });

  it('names the directory of a team poll, and sends no deadline when none is set', () => {
    expect(
      pollArgs(
        { title: 'Team', description: 'Which one?', options: opts('a', 'b'), deadline: '' },
        { timeZone: 'UTC', id: 'p2', directoryId: 'd1' },
      ),
    ).toEqual({
      id: 'p2',
      title: 'Team',
      description: 'Which one?',
      options: ['a', 'b'],
      deadline: null,
      directory_id: 'd1',
    });
  });
});
