import { Link } from 'react-router-dom';
import { usePageTitle } from '../../ui/page-title.ts';
import { PAGES } from '../../domain/pages.ts';
import { CookieSettingsButton } from './cookie-settings-button.tsx';
import { LegalPage } from './legal-page.tsx';
import { SUPPORT_EMAIL } from './marketing-constants.ts';

const storageRows = [
  {
    name: 'lb_cookie_consent',
    kind: 'Local storage',
    purpose: 'Remembers your cookie choice: whether you allow personalised ads and analytics, and when you chose.',
    lifetime: 'Until you change your choice or clear site data',
  },
  {
    name: 'Sidebar state',
    kind: 'Cookie',
    purpose: 'Remembers whether the workspace sidebar is open or collapsed.',
    lifetime: '7 days',
  },
  {
    name: 'Remembered username',
    kind: 'Local storage',
    purpose: 'Builds the addresses of your workspace pages, such as /Dashboard/{username}.',
    lifetime: 'Until you clear site data',
  },
  {
    name: 'Sign-in session',
    kind: 'IndexedDB',
    purpose: 'Keeps you signed in between visits.',
    lifetime: 'Until you sign out',
  },
  {
    name: 'Workspace copy',
    kind: 'IndexedDB',
    purpose: 'Your directories, links, events, tasks and polls, so Linkboard works offline.',
    lifetime: 'Until you clear site data',
  },
];

/** The privacy policy at /Privacy. */
export function PrivacyPage() {
  usePageTitle(PAGES.privacy.title);

  return (
    <LegalPage
      title="Privacy Policy"
      intro={<p>This policy explains what Linkboard stores about you, where it is kept, why, and who can see it.</p>}
    >
      <h2>What is stored on your device</h2>
      <p>
        Linkboard is built to work offline. When you sign in, your browser keeps a copy of your workspace in{' '}
        <strong>IndexedDB</strong>, a database inside your browser: your directories, links, members, events, tasks,
        polls and votes, plus a queue of changes you made that have not reached our servers yet. Each signed-in account
        gets its own database. Your sign-in session is kept there too, so you stay signed in.
      </p>
      <p>
        The app itself (its code, styles and icons) is cached by a service worker so it can start without a connection.
        That cache holds no personal data. You can remove everything Linkboard keeps on a device by clearing this
        site&apos;s data in your browser settings.
      </p>

      <h2>What is stored on our servers</h2>
      <ul>
        <li>
          <strong>Your account:</strong> your email address and your password, which our sign-in service keeps only as a
          secure hash.
        </li>
        <li>
          <strong>Your profile:</strong> your username, full name and bio if you add them, and the plan you are on.
        </li>
        <li>
          <strong>Your content:</strong> directories and their settings, links and their tags, events and tasks, polls
          and votes. A vote is recorded with the voter&apos;s email address so that each person votes once.
        </li>
        <li>
          <strong>Sharing:</strong> the email address and role of each person invited to a directory. Directory
          passwords are stored only as one-way hashes, never in readable form.
        </li>
        <li>
          <strong>Contact messages:</strong> the name, email address and message you send through the contact form.
        </li>
      </ul>
      <p>
        Payments are handled by our card payment provider. We never see or store your card details; we only learn which
        plan you have paid for.
      </p>

      <h2>How we use it</h2>
      <ul>
        <li>To run your workspace and keep it in sync across your devices.</li>
        <li>
          To send the emails you ask for: directory invitations, notices about events you create, and your contact
          messages to our support team.
        </li>
        <li>To answer you when you write to us.</li>
      </ul>
      <p>We do not sell your data, and we do not share it with advertisers.</p>

      <h2>Who can see your content</h2>
      <p>
        Directories are private unless you make them public. Anyone can see a public directory and your public profile;
        a password-protected directory opens only with its password. Members you invite can see the directories you
        share with them. Access rules are enforced by our database, not just by the app.
      </p>

      <h2>Cookies and local storage</h2>
      <p>
        Linkboard uses the few cookies and storage entries below. Ads shown on the Free plan are placeholders served by
        Linkboard itself: no third-party ad network or analytics script is loaded. Your choice in the cookie banner is
        still recorded, and personalised ads stay off unless you choose &lsquo;Accept all&rsquo;.
      </p>
      <div className="overflow-x-auto rounded-xl border border-slate-200">
        <table className="w-full min-w-[36rem] border-collapse text-left text-sm">
          <caption className="sr-only">Cookies and storage used by Linkboard</caption>
          <thead className="bg-slate-50 text-slate-900">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                Name
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Type
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Purpose
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Kept
              </th>
            </tr>
          </thead>
          <tbody>
            {storageRows.map((row) => (
              <tr key={row.name} className="border-t border-slate-200 align-top">
                <th scope="row" className="px-3 py-2 font-medium text-slate-900">
                  {row.name}
                </th>
                <td className="px-3 py-2">{row.kind}</td>
                <td className="px-3 py-2">{row.purpose}</td>
                <td className="px-3 py-2">{row.lifetime}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>You can change your cookie choice at any time:</p>
      <CookieSettingsButton />

      <h2>How long we keep it</h2>
      <p>
        We keep your account and content for as long as your account exists. Ask us to delete your account and we will
        delete it and the content you own from our servers. Contact messages are kept only as long as we need them to
        answer you.
      </p>

      <h2>Your rights</h2>
      <p>
        You can ask to see, correct, export or delete your data, and withdraw your consent at any time. The{' '}
        <Link to="/GDPR">GDPR page</Link> explains each right and how to use it.
      </p>

      <h2>Contact</h2>
      <p>
        Questions about privacy? Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or use the{' '}
        <Link to="/Contact">contact form</Link>.
      </p>
    </LegalPage>
  );
}
