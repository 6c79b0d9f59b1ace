/**
 * The calendar feed on the Profile screen ('Calendar sync' on the Pro card):
 * make a private address calendar apps subscribe to, see and copy it on the device that made
 * it, make a new one (the old one stops working) or turn the feed off. Online only: the server
 * makes and forgets the token; a Free user is told it is a Pro feature.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  createFeed,
  feedStatus,
  rememberedFeedUrl,
  revokeFeed,
  webcalUrl,
  type FeedStatus,
} from '../../backend/calendar-feed.ts';
import { formatDate } from '../../domain/date-format.ts';
import type { Tier } from '../../domain/plans.ts';
import { Button } from '../../ui/button.tsx';
import { useOnline } from '../../ui/use-online.ts';

export const FEED_PRO_ONLY = 'Calendar sync is a Pro feature.';
export const FEED_OFFLINE = 'Managing your calendar feed needs a connection.';
export const FEED_INTRO =
  'Subscribe to your events and tasks from Google Calendar, Apple Calendar or Thunderbird. Anyone with the address can read your calendar, so keep it to yourself.';
export const FEED_NEW_WARNING =
  'The current address will stop working. Calendar apps using it must be given the new one.';

interface Props {
  userId: string;
  tier: Tier;
  /** The user's zone, for the date the feed was made. */
  timeZone: string;
  upgradePath: string;
}

export function CalendarFeedSection({ userId, tier, timeZone, upgradePath }: Props) {
  const online = useOnline();
  const [status, setStatus] = useState<FeedStatus | null>(null);
  const [url, setUrl] = useState<string | null>(() => rememberedFeedUrl(userId));
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const [confirming, setConfirming] = useState(false);
  const paid = tier !== 'free';

  useEffect(() => {
    if (!online || !paid) return;
    let live = true;
    feedStatus()
      .then((next) => live && setStatus(next))
      .catch(() => live && setMessage('The calendar feed could not be loaded. Try again later.'));
    return () => {
      live = false;
    };
  }, [online, paid]);

  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    setMessage('');
    try {
      await action();
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  const make = () =>
    act(async () => {
      setUrl(await createFeed(userId));
      setStatus({ active: true, createdAt: new Date().toISOString() });
      setMessage('Your new feed address is ready.');
    });
  const turnOff = () =>
    act(async () => {
      await revokeFeed(userId);
      setUrl(null);
      setStatus({ active: false, createdAt: null });
      setMessage('The calendar feed is off.');
    });
  const copy = () =>
    act(async () => {
      await navigator.clipboard.writeText(url ?? '');
      setMessage('Feed address copied to clipboard!');
    });

  if (!paid) {
    return (
      <div className="mt-2 text-sm">
        <p>{FEED_PRO_ONLY}</p>
        <Link
          to={upgradePath}
          className="mt-3 inline-flex rounded-lg bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700"
        >
          Upgrade to Pro
        </Link>
      </div>
    );
  }
  const active = status?.active === true;
  const shownUrl = active ? url : null;
  return (
    <div className="mt-2 space-y-3 text-sm">
      <p className="text-slate-600">{FEED_INTRO}</p>
      {!online && <p>{FEED_OFFLINE}</p>}
      {active && status.createdAt && <p>Your feed is on since {formatDate(status.createdAt, timeZone)}.</p>}
      {shownUrl ? (
        <div className="flex flex-wrap gap-2">
          <label className="sr-only" htmlFor="feed-url">
            Feed address
          </label>
          <input
            id="feed-url"
            readOnly
            value={shownUrl}
            className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 font-mono text-xs"
            onFocus={(event) => event.currentTarget.select()}
          />
          <Button variant="secondary" onClick={copy} disabled={busy}>
            Copy
          </Button>
          <a
            href={webcalUrl(shownUrl)}
            className="inline-flex items-center rounded-lg bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700"
          >
            Subscribe in your calendar app
          </a>
        </div>
      ) : (
        active && <p>The address was made on another device or before; make a new one to see it here.</p>
      )}
      {confirming && <p role="alert">{FEED_NEW_WARNING}</p>}
      <div className="flex flex-wrap gap-3">
        {!active && (
          <Button onClick={make} disabled={!online || busy || status === null}>
            Create feed address
          </Button>
        )}
        {active && (
          <Button
            variant="secondary"
            disabled={!online || busy}
            onClick={() => (confirming ? void make() : setConfirming(true))}
          >
            {confirming ? 'Make a new address' : 'New address'}
          </Button>
        )}
        {active && (
          <Button variant="secondary" disabled={!online || busy} onClick={turnOff}>
            Turn off
          </Button>
        )}
      </div>
      <p role="status" className="min-h-5 text-slate-700">
        {message}
      </p>
    </div>
  );
}
