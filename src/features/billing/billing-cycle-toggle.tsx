import * as RadioGroup from '@radix-ui/react-radio-group';
import { YEARLY_SAVING, type BillingCycle } from '../../domain/plan-catalog.ts';

const item =
  'rounded-full px-4 py-2 text-sm font-medium text-slate-700 outline-none hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 data-[state=checked]:bg-surface data-[state=checked]:text-slate-900 data-[state=checked]:shadow-sm';

/** Monthly or yearly prices (docs/product.md, Upgrade): a radio group, arrow keys move between the two. */
export function BillingCycleToggle({
  value,
  onChange,
}: {
  value: BillingCycle;
  onChange: (cycle: BillingCycle) => void;
}) {
  return (
    <RadioGroup.Root
      aria-label="Billing cycle"
      orientation="horizontal"
      value={value}
      onValueChange={(next) => onChange(next === 'yearly' ? 'yearly' : 'monthly')}
      className="inline-flex rounded-full bg-slate-100 p-1"
    >
      <RadioGroup.Item value="monthly" className={item}>
        Monthly
      </RadioGroup.Item>
      <RadioGroup.Item value="yearly" className={item}>
        Yearly{' '}
        <span className="ml-1 rounded-full bg-emerald-100 dark:bg-emerald-900/50 px-2 py-0.5 text-xs font-semibold text-emerald-800 dark:text-emerald-200">
          {YEARLY_SAVING}
        </span>
      </RadioGroup.Item>
    </RadioGroup.Root>
  );
}
