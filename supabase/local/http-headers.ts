/**
 * The headers every response of the stack carries (what a hosted deployment's CDN or proxy sets;
 * docs/deploy.md): a Content-Security-Policy with no inline script and no framing, nosniff, a
 * referrer policy that sends only the origin to other sites, and a few isolation headers.
 * Styles allow 'unsafe-inline' because Radix's scroll lock injects a <style> element.
 */
import type { MiddlewareHandler } from 'hono';

export function appCsp(connectOrigins: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    // No blanket https: a saved link's pictures come through the link-image function, on the
    // backend's origin (docs/architecture.md, Link previews).
    `img-src 'self' data:${connectOrigins
      .filter((origin) => /^https?:/.test(origin))
      .map((origin) => ` ${origin}`)
      .join('')}`,
    "font-src 'self' data:",
    `connect-src 'self'${connectOrigins.map((origin) => ` ${origin}`).join('')}`,
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** For API answers (JSON): nothing may load from them, nothing may frame them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Pages the stack renders itself (the mailbox): inline styles only. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function securityHeaders(csp: (path: string) => string): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    if (!headers.has('Content-Security-Policy')) headers.set('Content-Security-Policy', csp(c.req.path));
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    headers.set('X-Frame-Options', 'DENY');
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  };
}
