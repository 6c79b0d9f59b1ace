/** Constants of the public site (docs/product.md, Public pages; Plans and limits). */
import { PAGES } from '../../domain/pages.ts';

/** Where contact-form messages are mailed. */
export const SUPPORT_EMAIL = 'support@linkboard.local';

/** The product's tagline: the landing page's title. */
export const TAGLINE = PAGES.landing.title;

/** The date printed on the static legal pages (docs/product.md, Route rules). */
export const LEGAL_UPDATED = 'September 25, 2025';

/** Contact messages are cut to this many characters (docs/product.md, Validation; Plans and limits). */
export const CONTACT_MESSAGE_MAX = 4000;

/** A submit sooner than this after the form appears is treated as spam (docs/product.md, Validation; Plans and limits). */
export const CONTACT_MIN_FILL_MS = 1200;
