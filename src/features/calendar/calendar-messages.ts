/** The calendar's failure texts (docs/product.md, Error messages), by the screen that shows them. */
export type CalendarScreen = 'calendar' | 'upcoming';

export const failureText = {
  calendar: {
    save: 'Failed to save event/task. Please try again.',
    deleteOne: 'Failed to delete event. Please try again.',
    deleteMany: 'Failed to delete event(s). Please try again.',
    toggle: 'Failed to update task. Please try again.',
  },
  upcoming: {
    save: 'Failed to save item. Please try again.',
    deleteOne: 'Failed to delete item. Please try again.',
    deleteMany: 'Failed to delete item. Please try again.',
    toggle: 'Failed to update task. Please try again.',
  },
} as const satisfies Record<CalendarScreen, Record<string, string>>;
