import { parse as parseCookieHeader } from "cookie";
import type { NextFunction, Request, Response } from "express";
import { SESSION_COOKIE } from "../session.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Google One Tap posts its ID token from Google's own page: that form is checked by Google's
 * double-submit cookie (g_csrf_token) instead.
 */
const CROSS_SITE_POSTS = new Set(["/login/google/one-tap"]);

export interface WriteRequest {
  method: string;
  path: string;
  /** The host the browser addressed (the proxy's, behind a trusted one). */
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
  referer: string | undefined;
  /** Whether the request carries the console's session cookie: the authority a forged post would borrow. */
  signedIn: boolean;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
};

export const CROSS_SITE_MESSAGE =
  "This request came from another site. Changes can only be made from the console itself.";
export const UNSAID_ORIGIN_MESSAGE =
  "This request did not say which page it came from, so it could have come from another site. " +
  "Changes can only be made from the console itself: if your browser or an extension removes the Origin and Referer headers, " +
  "allow them for this site.";

/** A refused write: the header that gave it away, and what the answer says. */
export interface Refusal {
  evidence: string;
  message: string;
}

const crossSite = (evidence: string): Refusal => ({ evidence, message: CROSS_SITE_MESSAGE });

/**
 * Why a write to the console must be refused, or null when it comes from the console itself.
 * Browsers say where a request comes from in Sec-Fetch-Site (all current ones) and in Origin
 * (every POST of a current browser; older ones only cross-origin); the oldest say it only in
 * Referer, when the page's policy lets them. In that order:
 * - Sec-Fetch-Site other than "same-origin" (cross-site, same-site, none) is refused;
 * - an Origin that is a host decides: ours passes, any other is refused whatever else is sent;
 * - `Origin: null` (sandboxed frames, some redirects and privacy settings) tells nothing: only
 *   Sec-Fetch-Site: same-origin lets it through;
 * - with neither, a Referer decides the same way as an Origin;
 * - with none of the three, a request carrying the session cookie is refused: a browser that
 *   says nothing of where a post comes from could be posting from any site with the victim's
 *   cookie. Without that cookie the request borrows no one's authority (a script, a test client).
 * Works without JavaScript and without a token in every form.
 */
export function crossSiteRefusal(request: WriteRequest): Refusal | null {
  if (SAFE_METHODS.has(request.method) || CROSS_SITE_POSTS.has(request.path)) return null;
  const site = request.secFetchSite?.toLowerCase();
  if (site && site !== "same-origin") return crossSite(`Sec-Fetch-Site: ${site}`);
  if (request.origin !== undefined && request.origin !== "null") {
    return hostOf(request.origin) === request.host ? null : crossSite(`Origin: ${request.origin}`);
  }
  if (site === "same-origin") return null;
  if (request.origin === "null") return crossSite("Origin: null");
  if (request.referer !== undefined)
    return hostOf(request.referer) === request.host ? null : crossSite(`Referer: ${request.referer}`);
  return request.signedIn ? { evidence: "no Origin, Sec-Fetch-Site or Referer", message: UNSAID_ORIGIN_MESSAGE } : null;
}

/**
 * Express middleware in front of the console: cross-site writes get a plain 403, never a 500.
 *
 * What passes is then handed to Remix without the two headers its own, older check would misread:
 * Remix compares a document post's Origin with `X-Forwarded-Host` (trusting any client's) or Host,
 * and answers an empty 500 when they differ. So `Origin: null` that Sec-Fetch-Site vouched for (a
 * no-referrer policy, privacy settings) would fail every plain form post, Logout included, and a
 * forwarded host from no trusted proxy would fail a post whose Origin is right.
 */
export function refuseCrossSiteWrites() {
  return (req: Request, res: Response, next: NextFunction) => {
    const cookies = req.get("cookie");
    const proxyTrusted = Boolean(req.app.get("trust proxy fn")(req.socket.remoteAddress, 0));
    if (!proxyTrusted) delete req.headers["x-forwarded-host"];
    const refusal = crossSiteRefusal({
      method: req.method,
      path: req.path,
      // Behind a trusted proxy the browser addressed the proxy's host.
      host: req.get("x-forwarded-host") || req.get("host"),
      origin: req.get("origin"),
      secFetchSite: req.get("sec-fetch-site"),
      referer: req.get("referer"),
      signedIn: cookies !== undefined && parseCookieHeader(cookies)[SESSION_COOKIE] !== undefined,
    });
    if (!refusal) {
      if (req.headers.origin === "null") delete req.headers.origin;
      return next();
    }
    res.status(403).type("text/plain").set("Cache-Control", "no-store").send(refusal.message);
  };
}
