import { usePageTitle } from '../../ui/page-title.ts';
import { PAGES } from '../../domain/pages.ts';
import { ContactForm } from './contact-form.tsx';
import { SUPPORT_EMAIL } from './marketing-constants.ts';

/** The contact page at /Contact (docs/product.md, Public pages). */
export function ContactPage() {
  usePageTitle(PAGES.contact.title);

  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">Contact</h1>
      <p className="mt-4 text-lg text-slate-700">
        Questions, ideas or a problem with Linkboard? Send us a message and we will reply by email. You can also write
        to{' '}
        <a
          href={`mailto:${SUPPORT_EMAIL}`}
          className="font-medium text-brand-700 dark:text-brand-300 underline underline-offset-2"
        >
          {SUPPORT_EMAIL}
        </a>
        .
      </p>
      <div className="mt-8">
        <ContactForm />
      </div>
    </div>
  );
}
