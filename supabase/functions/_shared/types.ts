/**
 * What an Edge Function receives besides its Request. On hosted Supabase these come from
 * Deno.env and the global fetch; the local stack passes them in, with a fetch that reaches
 * the stack in-process.
 */
export interface FunctionEnv {
  SUPABASE_URL: string;
  SUPABASE_ANON_KEY: string;
  SUPABASE_SERVICE_ROLE_KEY: string;
  SUPPORT_EMAIL: string;
  /** The app's public origin: where the card provider sends the browser back. */
  SITE_URL?: string;
  /** The card provider (Stripe): see _shared/billing.ts. */
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  /** Where the provider's API answers instead of Stripe's (the local test-mode provider). */
  STRIPE_API_BASE?: string;
  STRIPE_PRICE_PRO_MONTHLY?: string;
  STRIPE_PRICE_PRO_YEARLY?: string;
  STRIPE_PRICE_TEAM_MONTHLY?: string;
  STRIPE_PRICE_TEAM_YEARLY?: string;
  /** Where deliver-mail hands the queue's mail (smtp:// or smtps://); without it the queue is not delivered. */
  SMTP_URL?: string;
  /** The From of delivered mail; default `Linkboard <no-reply@linkboard.local>`. */
  MAIL_FROM?: string;
  /** A secret a scheduler may show deliver-mail instead of the service-role key. */
  MAIL_CRON_SECRET?: string;
  /** The first retry's delay after a temporary failure, in milliseconds (doubled per attempt); default 30000. */
  MAIL_RETRY_BASE_MS?: string;
  /** The VAPID key pair (base64url) that signs reminder pushes; without it send-reminders sends nothing. */
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  /** Who sends the pushes, as push services see it (mailto: or https:); default mailto:SUPPORT_EMAIL. */
  VAPID_SUBJECT?: string;
  /** A secret a scheduler may show send-reminders instead of the service-role key. */
  REMINDERS_CRON_SECRET?: string;
  /** Tests only: loopback `address:port` pairs link previews may reach (preview-allow.ts); ignored in production. */
  PREVIEW_FETCH_ALLOW?: string;
  fetch: typeof fetch;
}

export type FunctionHandler = (req: Request, env: FunctionEnv) => Promise<Response>;
