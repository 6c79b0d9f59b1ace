/**
 * 'Remind me on this device when Linkboard is closed': a switch that subscribes this
 * device to the server's reminder pushes. The browser asks for permission to notify only when the
 * user turns it on; its state is the browser's own subscription, so each device shows its own.
 * Turning it on needs a connection (the server saves the device); turning it off works offline.
 */
import * as Switch from '@radix-ui/react-switch';
import { useEffect, useId, useState } from 'react';
import {
  currentPushSubscription,
  disablePushReminders,
  enablePushReminders,
  pushSupported,
  resavePushSubscription,
  type PushReminderOutcome,
} from '../../backend/push-reminders.ts';
import { useOnline } from '../../ui/use-online.ts';

export const PUSH_LABEL = 'Remind me on this device when Linkboard is closed';
export const PUSH_OFFLINE = 'Turning this on needs a connection.';
export const PUSH_MESSAGES: Record<PushReminderOutcome | 'off', string> = {
  subscribed: 'Reminders will arrive on this device even when Linkboard is closed.',
  denied: 'Notifications are blocked for Linkboard. Allow them in your browser’s site settings, then try again.',
  unsupported: 'This browser cannot receive push reminders. Reminders still show while Linkboard is open.',
  failed: 'Reminders could not be turned on. Please try again later.',
  off: 'Reminders are off on this device.',
};

export function PushRemindersSection() {
  const id = useId();
  const online = useOnline();
  const supported = pushSupported();
  const [on, setOn] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState(supported ? '' : PUSH_MESSAGES.unsupported);
  /** Subscribing found no push service here: trying again cannot help. */
  const [noService, setNoService] = useState(false);

  useEffect(() => {
    let live = true;
    currentPushSubscription()
      .then((subscription) => {
        if (live) setOn(subscription !== null);
        if (subscription) void resavePushSubscription();
      })
      .catch(() => live && setOn(false));
    return () => {
      live = false;
    };
  }, []);

  const change = async (checked: boolean) => {
    setBusy(true);
    setMessage('');
    try {
      if (checked) {
        const outcome = await enablePushReminders();
        setOn(outcome === 'subscribed');
        setNoService(outcome === 'unsupported');
        setMessage(PUSH_MESSAGES[outcome]);
      } else {
        await disablePushReminders();
        setOn(false);
        setMessage(PUSH_MESSAGES.off);
      }
    } finally {
      setBusy(false);
    }
  };

  const disabled = !supported || noService || busy || on === null || (!online && !on);
  return (
    <div className="mt-2 space-y-2 text-sm">
      <div className="flex items-center gap-3">
        <Switch.Root
          id={id}
          checked={on === true}
          disabled={disabled}
          onCheckedChange={(checked) => void change(checked)}
          className="relative h-6 w-11 shrink-0 rounded-full bg-slate-300 transition-colors focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-50 data-[state=checked]:bg-brand-600"
        >
          <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
        </Switch.Root>
        <label htmlFor={id} className="font-medium text-slate-800">
          {PUSH_LABEL}
        </label>
      </div>
      {supported && !online && !on && <p className="text-slate-600">{PUSH_OFFLINE}</p>}
      <p role="status" className="min-h-5 text-slate-700">
        {message}
      </p>
    </div>
  );
}
