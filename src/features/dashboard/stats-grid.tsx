import type { DashboardStat } from '../../domain/dashboard.ts';

/** The stats block: 1, 2 or 4 columns by screen width (docs/product.md, Dashboard). */
export function StatsGrid({ stats }: { stats: readonly DashboardStat[] }) {
  return (
    <section aria-label="Stats">
      <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {stats.map((stat) => (
          <div key={stat.label} className="rounded-2xl border border-slate-200 bg-surface p-4">
            <dt className="text-sm text-slate-600">{stat.label}</dt>
            <dd className="mt-1 text-2xl font-bold text-slate-900 tabular-nums">{stat.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
