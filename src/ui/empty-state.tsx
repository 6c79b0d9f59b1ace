import type { ReactNode } from 'react';

/** A screen's honest empty state: what will be here and how to get started. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 bg-surface p-10 text-center">
      <p className="text-base font-semibold text-slate-900">{title}</p>
      {children && <div className="mt-2 text-sm text-slate-600">{children}</div>}
    </div>
  );
}
