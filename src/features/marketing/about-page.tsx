import { Link } from 'react-router-dom';
import { usePageTitle } from '../../ui/page-title.ts';
import { PAGES } from '../../domain/pages.ts';
import { LegalPage } from './legal-page.tsx';
import { TAGLINE } from './marketing-constants.ts';

/** The about page at /About. */
export function AboutPage() {
  usePageTitle(PAGES.about.title);

  return (
    <LegalPage
      title="About Linkboard"
      intro={
        <p>
          Linkboard helps you <strong className="text-slate-900">{TAGLINE}</strong>: keep your links in order, plan your
          time and make decisions together, in one place.
        </p>
      }
    >
      <h2>Who it is for</h2>
      <p>
        Linkboard is made for freelancers, students, professionals and teams: anyone who juggles a lot of links, a busy
        calendar and decisions that need more than one opinion.
      </p>

      <h2>What it does</h2>
      <ul>
        <li>Keeps your links in colour-themed directories, private, public or shared with the people you invite.</li>
        <li>Puts your events and tasks on one calendar.</li>
        <li>Runs polls, including team polls inside a shared directory.</li>
        <li>Gives you a public profile page for the collections you want to share.</li>
        <li>Works offline and installs on your phone or computer like an app.</li>
      </ul>

      <h2>How it is built</h2>
      <p>
        Linkboard is local-first. Everything you work with is stored on your device, so pages open instantly and keep
        working without a connection. Your changes are queued and synced to our servers when you are online, so your
        workspace follows you to every device you sign in on.
      </p>
      <p>
        Every rule, from who may see a directory to the limits of each plan, is enforced by our database itself, so your
        private directories stay private whichever app or device asks for them.
      </p>

      <h2>Plans</h2>
      <p>
        Linkboard is free to start. Pro adds unlimited directories, links and events, recurring events, tags, favourites
        and editors; Team adds shared directories with roles and team-only polls. See the{' '}
        <Link to="/Features">features and prices</Link>.
      </p>

      <h2>Get in touch</h2>
      <p>
        Questions, ideas or problems? Use the <Link to="/Contact">contact form</Link>.
      </p>
    </LegalPage>
  );
}
