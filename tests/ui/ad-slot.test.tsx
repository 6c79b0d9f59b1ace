// @vitest-environment jsdom
/** docs/product.md, Plans and limits: ads for Free only (the screens decide), personalised only when lb_cookie_consent says ads true. */
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AdSlot } from '../../src/ui/ad-slot.tsx';
import { clearConsent, CONSENT_KEY, writeConsent } from '../../src/ui/cookie-consent.ts';

const slot = () => screen.getByRole('complementary', { name: 'Advertisement' });

describe('AdSlot', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  it('is non-personalised with no choice, a malformed record, or ads refused', () => {
    render(<AdSlot shape="banner" />);
    expect(slot()).toHaveAttribute('data-ad-personalised', 'false');
    expect(slot()).toHaveTextContent('Non-personalised ads');
    localStorage.setItem(CONSENT_KEY, '{"ads":"yes","analytics":true,"ts":1}');
    act(() => window.dispatchEvent(new StorageEvent('storage', { key: CONSENT_KEY })));
    expect(slot()).toHaveAttribute('data-ad-personalised', 'false');
    act(() => void writeConsent({ ads: false, analytics: true }));
    expect(slot()).toHaveAttribute('data-ad-personalised', 'false');
  });

  it('follows the choice as it changes: personalised once ads are accepted, not after withdrawal', () => {
    render(<AdSlot shape="rectangle" />);
    act(() => void writeConsent({ ads: true, analytics: false }));
    expect(slot()).toHaveAttribute('data-ad-personalised', 'true');
    expect(slot()).toHaveTextContent('Personalised ads');
    act(() => clearConsent());
    expect(slot()).toHaveAttribute('data-ad-personalised', 'false');
  });
});
