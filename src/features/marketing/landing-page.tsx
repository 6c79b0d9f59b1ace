import { Link } from 'react-router-dom';
import { usePageTitle } from '../../ui/page-title.ts';
import { PAGES } from '../../domain/pages.ts';
import { HeroPreview } from './hero-preview.tsx';
import { audiences, features, testimonials } from './landing-content.ts';
import { TAGLINE } from './marketing-constants.ts';
import { RatingStars } from './rating-stars.tsx';
import { TestimonialCard } from './testimonial-card.tsx';

const primaryCta =
  'inline-flex items-center justify-center rounded-lg bg-brand-600 px-5 py-3 text-base font-semibold text-white hover:bg-brand-700';
const secondaryCta =
  'inline-flex items-center justify-center rounded-lg border border-slate-300 bg-surface px-5 py-3 text-base font-semibold text-slate-900 hover:bg-slate-50';

/** The public landing page at / (docs/product.md, Public pages). */
export function LandingPage() {
  usePageTitle(PAGES.landing.title);

  return (
    <>
      <section aria-labelledby="hero-title" className="bg-linear-to-b from-brand-50 dark:from-brand-950 to-surface">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 md:grid-cols-2 md:py-24">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">
              Linkboard
            </p>
            <h1 id="hero-title" className="mt-2 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
              {TAGLINE}
            </h1>
            <p className="mt-4 text-lg text-slate-700">
              Keep your links in colour-themed directories, plan events and tasks on a calendar, and decide together
              with polls. All in one place that works even when you are offline.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to="/Login" className={primaryCta}>
                Get started free
              </Link>
              <Link to="/Features" className={secondaryCta}>
                See all features
              </Link>
            </div>
          </div>
          <HeroPreview />
        </div>
      </section>

      <section aria-labelledby="audience-title" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="audience-title" className="text-2xl font-bold text-slate-900">
          Made for freelancers, students, professionals and teams
        </h2>
        <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {audiences.map((audience) => (
            <li
              key={audience}
              className="rounded-xl border border-slate-200 px-4 py-3 text-center font-semibold text-slate-800"
            >
              {audience}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="features-title" className="bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="features-title" className="text-2xl font-bold text-slate-900">
            What Linkboard does
          </h2>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {features.map((feature) => (
              <li key={feature.title} className="rounded-2xl border border-slate-200 bg-surface p-6">
                <h3 className="text-lg font-semibold text-slate-900">{feature.title}</h3>
                <p className="mt-2 text-slate-700">{feature.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="proof-title" className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="proof-title" className="text-2xl font-bold text-slate-900">
          Loved by the people who use it
        </h2>
        <div className="mt-6 flex flex-col gap-6 sm:flex-row sm:items-center sm:gap-12">
          <p className="text-lg text-slate-800">
            Trusted by <strong className="text-slate-900">15,000+ professionals</strong>
          </p>
          <p className="flex items-center gap-2 text-lg text-slate-800">
            <RatingStars />
            <span>
              <strong className="text-slate-900">4.9/5</strong> from 2,400+ reviews
            </span>
          </p>
        </div>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {testimonials.map((testimonial) => (
            <li key={testimonial.author}>
              <TestimonialCard testimonial={testimonial} />
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="cta-title" className="bg-brand-700">
        <div className="mx-auto max-w-6xl px-4 py-16 text-center">
          <h2 id="cta-title" className="text-3xl font-bold text-white">
            Ready to get organised?
          </h2>
          <p className="mt-3 text-lg text-brand-50">Start free and upgrade only when you need more.</p>
          <Link
            to="/Login"
            className="mt-8 inline-flex items-center justify-center rounded-lg bg-surface px-6 py-3 text-base font-semibold text-brand-700 dark:text-brand-300 hover:bg-brand-50 dark:hover:bg-brand-950/40"
          >
            Get started free
          </Link>
        </div>
      </section>
    </>
  );
}
