import { Link } from 'react-router-dom';
import { usePageTitle } from '../../ui/page-title.ts';
import { PAGES } from '../../domain/pages.ts';
import { PlanTable } from './plan-table.tsx';

const sections = [
  {
    title: 'Links and directories',
    points: [
      'Save links with a title, and find them again in list or grid view.',
      'Group them into directories, each with one of six colours.',
      'Keep a directory private, make it public, or make it public with a password (Pro and Team).',
      'Invite members to a directory as Viewers, or as Editors who can add and manage links (Pro and Team).',
      'Tag links and mark favourites (Pro and Team).',
    ],
  },
  {
    title: 'Calendar and tasks',
    points: [
      'Plan events and tasks on one calendar, and tick tasks off when they are done.',
      "See what is next on the Upcoming screen and today's items on your dashboard.",
      'Give tasks a priority, on every plan.',
      'Repeat events on a schedule with recurring events (Pro and Team).',
    ],
  },
  {
    title: 'Polls',
    points: [
      'Create a poll with 2 to 6 options and a deadline.',
      'Collect votes and see the totals for each option.',
      'Run team-only polls inside a shared directory (Team).',
    ],
  },
  {
    title: 'Public profile',
    points: ['Publish a public profile page that shows your public directories with a preview of their links.'],
  },
  {
    title: 'Offline and installable',
    points: [
      'Your workspace is stored on your device, so it opens instantly and keeps working without a connection.',
      'Changes made offline are synced to your account when you are back online.',
      'Install Linkboard on your phone or computer and launch it like any other app.',
    ],
  },
];

/** The public features page at /Features (docs/product.md, Route rules; Roles and permissions; Plans and limits). */
export function FeaturesPage() {
  usePageTitle(PAGES.features.title);

  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">Features</h1>
      <p className="mt-4 max-w-3xl text-lg text-slate-700">
        Linkboard brings your links, your calendar and your decisions together, for freelancers, students, professionals
        and teams.
      </p>

      <div className="mt-10 grid gap-6 md:grid-cols-2">
        {sections.map((section) => (
          <section key={section.title} className="rounded-2xl border border-slate-200 p-6">
            <h2 className="text-xl font-semibold text-slate-900">{section.title}</h2>
            <ul className="mt-3 list-disc space-y-2 pl-5 text-slate-700">
              {section.points.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
          </section>
        ))}
      </div>

      <section aria-labelledby="plans-title" className="mt-16">
        <h2 id="plans-title" className="text-2xl font-bold text-slate-900">
          Plans and pricing
        </h2>
        <p className="mt-2 text-slate-700">
          Start on Free and upgrade when you need more. Paying yearly saves 17% compared with paying monthly.
        </p>
        <div className="mt-6">
          <PlanTable />
        </div>
        <p className="mt-6">
          <Link
            to="/Login"
            className="inline-flex items-center justify-center rounded-lg bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700"
          >
            Get started free
          </Link>
        </p>
      </section>

      <section aria-labelledby="roadmap-title" className="mt-16">
        <h2 id="roadmap-title" className="text-2xl font-bold text-slate-900">
          Coming next
        </h2>
        <ul className="mt-3 list-disc space-y-2 pl-5 text-slate-700">
          <li>Q1 2026: reminders, export and calendar sync.</li>
          <li>Q2 2026: team management.</li>
        </ul>
      </section>
    </div>
  );
}
