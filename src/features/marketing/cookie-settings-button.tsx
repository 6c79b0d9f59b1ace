import { Button } from '../../ui/button.tsx';
import { toast } from '../../ui/toast-store.ts';
import { clearConsent } from '../../ui/cookie-consent.ts';

/** Forgets the stored cookie choice so the banner asks again. */
export function CookieSettingsButton() {
  return (
    <Button
      variant="secondary"
      onClick={() => {
        clearConsent();
        toast('Your cookie choice was cleared. Please choose again in the cookie banner.', 'info');
      }}
    >
      Change my cookie choice
    </Button>
  );
}
