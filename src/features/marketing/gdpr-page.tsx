import { Link } from 'react-router-dom';
import { usePageTitle } from '../../ui/page-title.ts';
import { PAGES } from '../../domain/pages.ts';
import { CookieSettingsButton } from './cookie-settings-button.tsx';
import { LegalPage } from './legal-page.tsx';
import { SUPPORT_EMAIL } from './marketing-constants.ts';

const rights = [
  {
    title: 'Access',
    text: 'Ask for a copy of the personal data we hold about you.',
  },
  {
    title: 'Rectification',
    text: 'Correct data that is wrong. You can edit your username and bio yourself on the Profile screen.',
  },
  {
    title: 'Erasure',
    text: 'Ask us to delete your account and the content you own.',
  },
  {
    title: 'Restriction',
    text: 'Ask us to pause the use of your data while a question about it is being settled.',
  },
  {
    title: 'Portability',
    text: 'Receive your links, directories, events and polls in a common machine-readable format.',
  },
  {
    title: 'Objection',
    text: 'Object to any use of your data that is based on our legitimate interests.',
  },
  {
    title: 'Withdrawing consent',
    text: 'Change your cookie choice at any time; withdrawing consent is as easy as giving it.',
  },
];

/** The GDPR page at /GDPR. */
export function GdprPage() {
  usePageTitle(PAGES.gdpr.title);

  return (
    <LegalPage
      title="GDPR"
      intro={
        <p>
          Under the General Data Protection Regulation you have clear rights over your personal data. This page explains
          why Linkboard processes your data and how to use those rights. What we store, and where, is described in our{' '}
          <Link to="/Privacy" className="font-medium text-brand-700 dark:text-brand-300 underline underline-offset-2">
            Privacy Policy
          </Link>
          .
        </p>
      }
    >
      <h2>Why we process your data</h2>
      <ul>
        <li>
          <strong>To provide the service you signed up for</strong> (performance of a contract): your account, profile,
          directories, links, events, tasks, polls and votes, and the emails you ask us to send.
        </li>
        <li>
          <strong>With your consent:</strong> personalised ads and usage analytics, only if you choose &lsquo;Accept
          all&rsquo; in the cookie banner. &lsquo;Essential only&rsquo; keeps them off.
        </li>
        <li>
          <strong>Legitimate interest:</strong> keeping the contact form free of spam. We do this with a hidden field
          and a short timing check, not by tracking you.
        </li>
      </ul>

      <h2>Where your data lives</h2>
      <p>
        A copy of your workspace is kept on your own device in your browser&apos;s IndexedDB so Linkboard works offline.
        The authoritative copy is kept in our database, which runs on Supabase (Postgres), where access rules checked by
        the database decide who can read each record. Card payments are processed by our card payment provider, which
        never shares your card details with us.
      </p>

      <h2>Your rights</h2>
      <ul>
        {rights.map((right) => (
          <li key={right.title}>
            <strong>{right.title}:</strong> {right.text}
          </li>
        ))}
      </ul>
      <CookieSettingsButton />

      <h2>How to use your rights</h2>
      <p>
        Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or use the{' '}
        <Link to="/Contact">contact form</Link>, from the email address of your account if you can, and tell us which
        right you want to use. We answer within one month. If you are not satisfied with our answer, you may complain to
        the data protection authority of the country where you live or work.
      </p>

      <h2>Data on your device</h2>
      <p>
        Data kept in your browser is under your control. Clearing this site&apos;s data in your browser settings removes
        the local copy of your workspace, your sign-in session, your cookie choice and the sidebar cookie. Changes that
        had not been synced yet are lost when you do this, so go online first if you made changes offline.
      </p>
    </LegalPage>
  );
}
