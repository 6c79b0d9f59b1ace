import type { ReactNode } from 'react';
import { LEGAL_UPDATED } from './marketing-constants.ts';

export interface LegalPageProps {
  title: string;
  /** One or two sentences under the title. */
  intro: ReactNode;
  children: ReactNode;
}

const prose =
  'mt-8 space-y-4 text-slate-700 [&_a]:font-medium [&_a]:text-brand-700 dark:[&_a]:text-brand-300 [&_a]:underline [&_a]:underline-offset-2 ' +
  '[&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-slate-900 [&_h3]:mt-6 [&_h3]:text-lg ' +
  '[&_h3]:font-semibold [&_h3]:text-slate-900 [&_li]:mt-1 [&_ul]:list-disc [&_ul]:pl-6 [&_strong]:text-slate-900';

/** The frame of a static text page: title, date line, intro and sections. */
export function LegalPage({ title, intro, children }: LegalPageProps) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-2 text-sm text-slate-600">Last updated: {LEGAL_UPDATED}</p>
      <div className="mt-6 text-lg text-slate-700">{intro}</div>
      <div className={prose}>{children}</div>
    </article>
  );
}
