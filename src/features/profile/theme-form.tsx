import * as RadioGroup from '@radix-ui/react-radio-group';
import { themeChoices, type ThemeChoice } from '../../domain/validation.ts';
import { isThemeChoice } from '../../ui/theme/theme.ts';

export const THEME_LABELS: Record<ThemeChoice, string> = { light: 'Light', dark: 'Dark', system: 'System' };

const item =
  'rounded-full px-4 py-2 text-sm font-medium text-slate-700 outline-none hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 data-[state=checked]:bg-surface data-[state=checked]:text-slate-900 data-[state=checked]:shadow-sm';

/**
 * Light, dark, or the system's (docs/product.md, Profile): a radio group that applies and saves at
 * once; the choice is synced with the profile, so the user's other devices follow.
 */
export function ThemeForm({ saved, onChange }: { saved: ThemeChoice; onChange(choice: ThemeChoice): void }) {
  return (
    <div className="mt-4 grid gap-2">
      <span id="profile-theme-label" className="text-sm font-medium text-slate-700">
        Theme
      </span>
      <RadioGroup.Root
        aria-labelledby="profile-theme-label"
        orientation="horizontal"
        value={saved}
        onValueChange={(next) => isThemeChoice(next) && onChange(next)}
        className="inline-flex w-fit rounded-full bg-slate-100 p-1"
      >
        {themeChoices.map((choice) => (
          <RadioGroup.Item key={choice} value={choice} className={item}>
            {THEME_LABELS[choice]}
          </RadioGroup.Item>
        ))}
      </RadioGroup.Root>
      <p className="text-xs text-slate-600">System follows your device’s light or dark setting.</p>
    </div>
  );
}
