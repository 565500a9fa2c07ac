import type { NextFunction, Request, Response } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Google One Tap posts its ID token from Google's own page: that form is checked by Google's
 * double-submit cookie (g_csrf_token) instead.
 */
const CROSS_SITE_POSTS = new Set(["/login/google/one-tap"]);

export interface WriteRequest {
  method: string;
  path: string;
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
}

/**
 * Why a write to the console must be refused, or null when it comes from the console itself.
 * The rule of Go's CrossOriginProtection: browsers say where a request comes from in
 * Sec-Fetch-Site (all current ones) or Origin (older ones, and every cross-origin POST); only
 * "same-origin", or an Origin whose host is ours, may write. `Origin: null` (sandboxed frames,
 * redirects, file pages) is refused. A request with neither header is not from a browser, so it
 * carries no victim's cookie: no other site can make a browser send one.
 * Works without JavaScript and without a token in every form.
 */
export function crossSiteRefusal(request: WriteRequest): string | null {
  if (SAFE_METHODS.has(request.method) || CROSS_SITE_POSTS.has(request.path)) return null;
  const site = request.secFetchSite?.toLowerCase();
  if (site) return site === "same-origin" ? null : `Sec-Fetch-Site: ${site}`;
  if (request.origin === undefined) return null;
  let originHost: string | null = null;
  try {
    originHost = request.origin === "null" ? null : new URL(request.origin).host;
  } catch {
    originHost = null;
  }
  return originHost !== null && originHost === request.host ? null : `Origin: ${request.origin}`;
}

export const CROSS_SITE_MESSAGE = "This request came from another site. Changes can only be made from the console itself.";

/** Express middleware in front of the console: cross-site writes get a plain 403, never a 500. */
export function refuseCrossSiteWrites() {
  return (req: Request, res: Response, next: NextFunction) => {
    const refusal = crossSiteRefusal({
      method: req.method,
      path: req.path,
      // Behind a trusted proxy the browser addressed the proxy's host.
      host: (req.app.get("trust proxy fn")(req.socket.remoteAddress, 0) && req.get("x-forwarded-host")) || req.get("host"),
      origin: req.get("origin"),
      secFetchSite: req.get("sec-fetch-site"),
    });
    if (!refusal) return next();
    res.status(403).type("text/plain").set("Cache-Control", "no-store").send(CROSS_SITE_MESSAGE);
  };
}
