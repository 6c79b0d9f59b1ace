import { comparisonRows, planCatalog } from '../../domain/plan-catalog.ts';
import type { Tier } from '../../domain/plans.ts';

const cell = 'px-4 py-3';

/** What each plan gives, row by row (docs/product.md, Roles and permissions, docs/product.md, Decisions); the user's plan's column is marked. */
export function PlanComparison({ current }: { current: Tier }) {
  return (
    <div className="overflow-x-auto rounded-2xl bg-surface shadow-sm ring-1 ring-slate-200">
      <table className="w-full min-w-[36rem] border-collapse text-left text-sm">
        <caption className="sr-only">Features of the Free, Pro and Team plans</caption>
        <thead className="bg-slate-50 text-slate-900">
          <tr>
            <th scope="col" className={`${cell} font-semibold`}>
              Feature
            </th>
            {planCatalog.map((plan) => (
              <th key={plan.tier} scope="col" className={`${cell} font-semibold`}>
                {plan.name}
                {plan.tier === current && (
                  <span className="block text-xs font-medium text-brand-700 dark:text-brand-300">Current plan</span>
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {comparisonRows.map((row) => (
            <tr key={row.feature} className="border-t border-slate-200">
              <th scope="row" className={`${cell} font-medium text-slate-900`}>
                {row.feature}
              </th>
              {planCatalog.map((plan) => (
                <td key={plan.tier} className={`${cell} text-slate-800`}>
                  {row.values[plan.tier]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
