// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { LandingPage } from '../../../src/features/marketing/landing-page.tsx';
import { PublicLayout } from '../../../src/ui/public-layout.tsx';

function renderLanding() {
  render(
    <MemoryRouter initialEntries={['/']}>
      <PublicLayout>
        <LandingPage />
      </PublicLayout>
    </MemoryRouter>,
  );
}

afterEach(cleanup);

describe('LandingPage', () => {
  it('renders the tagline as the page heading and sets the title', () => {
    renderLanding();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('organise, plan, decide');
    expect(document.title).toContain('Linkboard');
  });

  it('names the audience and makes the claims', () => {
    renderLanding();
    const main = screen.getByRole('main');
    expect(main).toHaveTextContent('freelancers, students, professionals and teams');
    expect(main).toHaveTextContent('15,000+ professionals');
    expect(main).toHaveTextContent('4.9/5 from 2,400+ reviews');
  });

  it('shows three testimonials', () => {
    renderLanding();
    const quotes = screen.getAllByRole('figure');
    expect(quotes).toHaveLength(3);
    for (const quote of quotes) expect(within(quote).getByText(/—/)).toBeInTheDocument();
  });

  it('links to sign in from the call to action and the header', () => {
    renderLanding();
    const toLogin = screen.getAllByRole('link').filter((link) => link.getAttribute('href') === '/Login');
    expect(toLogin.length).toBeGreaterThanOrEqual(2);
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/Login');
  });

  it('has the landmarks and headings in order', () => {
    renderLanding();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    const levels = screen.getAllByRole('heading').map((h) => Number(h.tagName.slice(1)));
    expect(levels[0]).toBe(1);
    levels.reduce((previous, level) => {
      expect(level - previous).toBeLessThanOrEqual(1);
      return level;
    });
  });
});
