import { planCatalog, priceText } from '../../domain/plan-catalog.ts';

/** The plan comparison of docs/product.md, Roles and permissions with the prices of docs/product.md, Plans and limits. */
export function PlanTable() {
  return (
    <div className="overflow-x-auto rounded-2xl border border-slate-200">
      <table className="w-full min-w-[40rem] border-collapse text-left text-sm">
        <caption className="sr-only">Linkboard plans: prices and what each plan includes</caption>
        <thead className="bg-slate-50 text-slate-900">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Plan
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Price
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              What you get
            </th>
          </tr>
        </thead>
        <tbody>
          {planCatalog.map((plan) => (
            <tr key={plan.name} className="border-t border-slate-200 align-top">
              <th scope="row" className="px-4 py-4 text-base font-semibold text-slate-900">
                {plan.name}
              </th>
              <td className="px-4 py-4 text-slate-800">
                <span className="block font-medium">{priceText(plan.tier, 'monthly')}</span>
                {plan.tier !== 'free' && (
                  <span className="block text-slate-700">or {priceText(plan.tier, 'yearly')}</span>
                )}
                {plan.saving && (
                  <span className="mt-1 inline-block rounded-full bg-emerald-50 dark:bg-emerald-950/40 px-2 py-0.5 text-xs font-medium text-emerald-800 dark:text-emerald-200">
                    {plan.saving}
                  </span>
                )}
              </td>
              <td className="px-4 py-4 text-slate-800">
                <ul className="list-disc space-y-1 pl-5">
                  {plan.rights.map((right) => (
                    <li key={right}>{right}</li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
