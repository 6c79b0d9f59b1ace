// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CookieBanner } from '../../../src/features/marketing/cookie-banner.tsx';
import { CONSENT_KEY, clearConsent, readConsent, writeConsent } from '../../../src/ui/cookie-consent.ts';

function renderBanner() {
  render(
    <MemoryRouter>
      <CookieBanner />
    </MemoryRouter>,
  );
}

const banner = () => screen.queryByRole('region', { name: 'Cookie consent' });

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('CookieBanner', () => {
  it('is shown while no choice is stored', () => {
    renderBanner();
    expect(banner()).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Accept all' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Essential only' })).toBeInTheDocument();
  });

  it("'Accept all' stores ads and analytics true with a timestamp, then hides", async () => {
    const before = Date.now();
    renderBanner();
    await userEvent.click(screen.getByRole('button', { name: 'Accept all' }));
    expect(banner()).not.toBeInTheDocument();
    const stored = JSON.parse(localStorage.getItem(CONSENT_KEY)!);
    expect(Object.keys(stored).sort()).toEqual(['ads', 'analytics', 'ts']);
    expect(stored.ads).toBe(true);
    expect(stored.analytics).toBe(true);
    expect(stored.ts).toBeGreaterThanOrEqual(before);
    expect(stored.ts).toBeLessThanOrEqual(Date.now());
  });

  it("'Essential only' stores ads and analytics false, then hides", async () => {
    renderBanner();
    await userEvent.click(screen.getByRole('button', { name: 'Essential only' }));
    expect(banner()).not.toBeInTheDocument();
    const stored = JSON.parse(localStorage.getItem(CONSENT_KEY)!);
    expect(stored).toEqual({ ads: false, analytics: false, ts: expect.any(Number) });
  });

  it('is hidden when a choice is already stored', () => {
    localStorage.setItem(CONSENT_KEY, JSON.stringify({ ads: false, analytics: false, ts: 1 }));
    renderBanner();
    expect(banner()).not.toBeInTheDocument();
  });

  it.each(['{not json', 'null', '"yes"', '{"ads":"true","analytics":true,"ts":1}', '{"ads":true}'])(
    'is shown when the stored value is malformed: %s',
    (raw) => {
      localStorage.setItem(CONSENT_KEY, raw);
      renderBanner();
      expect(banner()).toBeInTheDocument();
    },
  );

  it('shows again when the choice is cleared', () => {
    writeConsent({ ads: true, analytics: true });
    renderBanner();
    expect(banner()).not.toBeInTheDocument();
    act(() => clearConsent());
    expect(banner()).toBeInTheDocument();
  });
});

describe('the room the banner takes', () => {
  it('is reserved at the bottom of the page while it shows, and given back once a choice is made', async () => {
    const space = () => document.documentElement.style.getPropertyValue('--cookie-banner-space');
    const rect = vi
      .spyOn(HTMLElement.prototype, 'getBoundingClientRect')
      .mockReturnValue({ top: window.innerHeight - 164 } as DOMRect);
    try {
      renderBanner();
      expect(space()).toBe('164px');
      await userEvent.click(screen.getByRole('button', { name: 'Essential only' }));
      expect(space()).toBe('');
    } finally {
      rect.mockRestore();
    }
  });
});

describe('cookie consent storage', () => {
  it('round-trips a choice with the given time', () => {
    expect(readConsent()).toBeNull();
    expect(writeConsent({ ads: false, analytics: true }, 1234)).toEqual({ ads: false, analytics: true, ts: 1234 });
    expect(readConsent()).toEqual({ ads: false, analytics: true, ts: 1234 });
  });

  it('tolerates storage that throws', () => {
    const spy = vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('denied');
    });
    expect(readConsent()).toBeNull();
    spy.mockRestore();
  });
});
