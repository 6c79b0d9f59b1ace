/** Constants of the public site (spec 1, 2.14 and 9). */
import { PAGES } from '../../domain/pages.ts';

/** Where contact-form messages are mailed. */
export const SUPPORT_EMAIL = 'support@linkboard.local';

/** The product's tagline: the landing page's title. */
export const TAGLINE = PAGES.landing.title;

/** The date printed on the static legal pages (spec 2.1). */
export const LEGAL_UPDATED = 'September 25, 2025';

/** Contact messages are cut to this many characters (spec 5 and 9). */
export const CONTACT_MESSAGE_MAX = 4000;

/** A submit sooner than this after the form appears is treated as spam (spec 5 and 9). */
export const CONTACT_MIN_FILL_MS = 1200;
