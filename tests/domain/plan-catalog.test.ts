import { describe, expect, it } from 'vitest';
import {
  comparisonRows,
  planCatalog,
  planOffer,
  priceText,
  roadmap,
  YEARLY_SAVING,
} from '../../src/domain/plan-catalog.ts';

describe('the plan catalogue (docs/product.md, Roles and permissions; Plans and limits)', () => {
  it("words each plan's price per billing cycle as docs/product.md does", () => {
    expect(priceText('pro', 'monthly')).toBe('$4.99 a month');
    expect(priceText('pro', 'yearly')).toBe('$50 a year');
    expect(priceText('team', 'monthly')).toBe('$9.99 per user a month');
    expect(priceText('team', 'yearly')).toBe('$100 per user a year');
    expect(priceText('free', 'monthly')).toBe('$0');
    expect(priceText('free', 'yearly')).toBe('$0');
  });

  it('gives the yearly savings and the Pro feature text verbatim', () => {
    expect(YEARLY_SAVING).toBe('Save 17%');
    expect(planOffer('pro').saving).toBe('Save $10/year');
    expect(planOffer('team').saving).toBe('Save $20/year');
    expect(planOffer('free').saving).toBeUndefined();
    expect(planOffer('pro').summary).toBe(
      'Unlimited links & directories • Calendar sync • Advanced voting • Priority support',
    );
  });

  it('lists Free, Pro and Team in that order, with the Free limits of docs/product.md, Plans and limits', () => {
    expect(planCatalog.map((plan) => plan.name)).toEqual(['Free', 'Pro', 'Team']);
    expect(planOffer('free').rights).toEqual(
      expect.arrayContaining(['1 directory', '30 saved links', '10 events a month', '5 polls a month']),
    );
  });

  it('compares the plans row by row: no ads on Pro and Team (docs/product.md, Decisions), team polls on Team only', () => {
    const row = (feature: string) => comparisonRows.find((entry) => entry.feature === feature)?.values;
    expect(row('Ads')).toEqual({ free: 'Shown', pro: 'None', team: 'None' });
    expect(row('Team polls in shared directories')).toEqual({ free: 'No', pro: 'No', team: 'Yes' });
    expect(row('Saved links')).toEqual({ free: '30', pro: 'Unlimited', team: 'Unlimited' });
    expect(row('Broken link checks')).toEqual({ free: 'No', pro: 'Weekly', team: 'Weekly' });
    expect(comparisonRows.map((entry) => entry.feature)).toEqual([
      'Directories',
      'Saved links',
      'Events a month',
      'Polls a month',
      'Recurring events',
      'Tags and favourites',
      'Editor invites',
      'Password-protected directories',
      'Broken link checks',
      'Team polls in shared directories',
      'Ads',
      'Watermark on polls',
      'Support',
    ]);
  });

  it('names the roadmap of docs/product.md, Plans and limits', () => {
    expect(roadmap).toEqual([
      { when: 'Q1 2026', what: 'reminders, export and calendar sync' },
      { when: 'Q2 2026', what: 'team management' },
    ]);
  });
});
