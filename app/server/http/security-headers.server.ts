import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";
import onHeaders from "on-headers";

export interface SecurityHeaderOptions {
  /** Google's authorization endpoint when Google sign-in is configured (the sign-in form redirects there). */
  googleAuthorizationUrl: string | null;
  /** Google One Tap's script and frame, only when it is offered (against the real Google). */
  oneTap: boolean;
  /** Where browsers reach the widget and its API (PUBLIC_URL), when it is not this origin. */
  publicOrigin: string | null;
}

/** The only console pages another page may frame: the widget preview and the test page, by this origin only. */
export const isFramablePath = (path: string) => /\/(appearance\/preview|bot-testing\/test-page)\/?$/.test(path);

const GOOGLE_GSI = "https://accounts.google.com/gsi/";

/**
 * The Content-Security-Policy and friends of console pages (helmet; docs/decisions/016). Scripts
 * come from this origin or carry the request's nonce (Remix's inline hydration scripts, the
 * preview's opener); styles may be inline (React style props, the widget's shadow-root style).
 * `frame-ancestors` and one X-Frame-Options say the same thing. HSTS only over HTTPS.
 * Every answer is `Cache-Control: private, no-store` unless its route chose otherwise: pages and
 * their data are one user's, and must not outlive sign-out in a browser's or a proxy's cache.
 */
function keepPrivate(this: ServerResponse) {
  if (!this.hasHeader("Cache-Control")) this.setHeader("Cache-Control", "private, no-store");
}

export function securityHeaders(options: SecurityHeaderOptions) {
  const google = options.googleAuthorizationUrl ? [new URL(options.googleAuthorizationUrl).origin] : [];
  const oneTap = options.oneTap ? [GOOGLE_GSI] : [];
  const widget = options.publicOrigin ? [options.publicOrigin] : [];
  const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as Response).locals.cspNonce}'`;
  const headersFor = (framable: boolean) =>
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          "default-src": ["'self'"],
          "script-src": ["'self'", nonce, ...widget, ...oneTap],
          "style-src": ["'self'", "'unsafe-inline'", ...oneTap],
          // Client logos may live on any web host.
          "img-src": ["'self'", "data:", "blob:", "https:", "http:"],
          "font-src": ["'self'", "data:"],
          "connect-src": ["'self'", ...widget, ...oneTap],
          "frame-src": ["'self'", ...oneTap],
          "frame-ancestors": [framable ? "'self'" : "'none'"],
          // The Google button's form is answered with a redirect to Google: form-action covers it.
          "form-action": ["'self'", ...google],
          "base-uri": ["'self'"],
          "object-src": ["'none'"],
        },
      },
      // One Tap opens Google's popup and talks back to this window.
      crossOriginOpenerPolicy: { policy: options.oneTap ? "same-origin-allow-popups" : "same-origin" },
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      strictTransportSecurity: false,
      xFrameOptions: { action: framable ? "sameorigin" : "deny" },
    });
  const framed = headersFor(true);
  const unframed = headersFor(false);
  return (req: Request, res: Response, next: NextFunction) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    res.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()");
    if (req.secure) res.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    onHeaders(res, keepPrivate);
    (isFramablePath(req.path) ? framed : unframed)(req, res, next);
  };
}
