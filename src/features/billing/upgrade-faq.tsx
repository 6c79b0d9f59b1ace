import { roadmap } from '../../domain/plan-catalog.ts';
import { MANAGE_PLAN } from './plan-actions.ts';

const questions: { question: string; answer: string }[] = [
  {
    question: 'Can I cancel at any time?',
    answer: `Yes. Choose '${MANAGE_PLAN}' and cancel in the billing portal. Your plan runs to the end of the period you paid for, you are not charged again, and you keep your data: whatever is above the Free limits stays readable, and adding more needs Pro again.`,
  },
  {
    question: 'What happens to my data when I downgrade?',
    answer:
      'Nothing is deleted. What is above the Free limits (more than 1 directory or 30 links, for example) stays, read-only: you can still open it, but you cannot add more until you are under the limits again or upgrade.',
  },
  {
    question: 'Is the yearly price charged at once?',
    answer:
      'Yes. The yearly price is charged once at the start of each year, and it costs about 17% less than paying monthly for twelve months.',
  },
  {
    question: 'How does per-user pricing work on Team?',
    answer:
      'Team is priced per user: each person who uses Linkboard on your Team plan costs $9.99 a month, or $100 a year.',
  },
  {
    question: 'Which payment methods can I use?',
    answer:
      'Cards, through our payment provider. Your card details go to the provider only; Linkboard never sees or stores them.',
  },
  {
    question: 'Can I upgrade while offline?',
    answer:
      'No. You can compare the plans offline, but checkout and the billing portal need a connection. Your new plan shows as soon as the device is back online and has synced.',
  },
];

/** What is coming next (docs/product.md, Plans and limits). */
export function RoadmapNote() {
  return (
    <section aria-labelledby="roadmap" className="mt-10 rounded-2xl bg-brand-50 dark:bg-brand-950/40 p-6">
      <h2 id="roadmap" className="text-lg font-semibold text-slate-900">
        Coming next
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-800">
        {roadmap.map((item) => (
          <li key={item.when}>
            {item.when}: {item.what}.
          </li>
        ))}
      </ul>
    </section>
  );
}

export function UpgradeFaq() {
  return (
    <section aria-labelledby="faq" className="mt-10">
      <h2 id="faq" className="text-lg font-semibold text-slate-900">
        Frequently asked questions
      </h2>
      <div className="mt-4 divide-y divide-slate-200 rounded-2xl bg-surface shadow-sm ring-1 ring-slate-200">
        {questions.map((item) => (
          <details key={item.question} className="group px-6 py-4">
            <summary className="cursor-pointer font-medium text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600">
              {item.question}
            </summary>
            <p className="mt-2 text-sm text-slate-700">{item.answer}</p>
          </details>
        ))}
      </div>
    </section>
  );
}
