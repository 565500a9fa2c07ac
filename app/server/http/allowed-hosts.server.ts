import { isIP } from "node:net";
import type { NextFunction, Request, Response } from "express";

export const UNKNOWN_HOST_MESSAGE =
  "This server answers to its own addresses only while development sign-in is on. " +
  "Open it at its address, or add this host name to ALLOWED_HOSTS.";

/**
 * Whether a request addressed this server by a name it answers to: an IP address, `localhost` and
 * its subdomains (which resolve to this machine alone), or a name given in the settings.
 */
export function hostAllowed(hostname: string, named: ReadonlySet<string>) {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (isIP(name.replace(/^\[(.*)\]$/, "$1"))) return true;
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  return named.has(name);
}

/** The names given in the settings: PUBLIC_URL's host, HOST when it is a name, ALLOWED_HOSTS. */
export function namedHostsOf(env: { PUBLIC_URL?: string; HOST?: string; ALLOWED_HOSTS?: string }) {
  const names = new Set<string>();
  const add = (name: string | undefined) => {
    const clean = name?.trim().toLowerCase().replace(/\.$/, "");
    if (clean) names.add(clean);
  };
  if (env.PUBLIC_URL) {
    try {
      add(new URL(env.PUBLIC_URL).hostname);
    } catch {
      // An unreadable PUBLIC_URL names no host; the server's own start-up says what is wrong with it.
    }
  }
  add(env.HOST);
  for (const name of (env.ALLOWED_HOSTS ?? "").split(",")) add(name);
  return names;
}

/**
 * While password-free development sign-in is on, requests that address this server by a name it
 * was not given are refused. Otherwise a web page the operator visits could rebind its own name to
 * 127.0.0.1 (DNS rebinding) and, as a page of that name, sign itself in as anyone and read what it
 * likes. Without development sign-in such a page holds no one's cookie and nothing to sign in with.
 */
export function refuseUnknownHosts(named: ReadonlySet<string>) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (hostAllowed(req.hostname ?? "", named)) return next();
    res.status(403).type("text/plain").set("Cache-Control", "no-store").send(UNKNOWN_HOST_MESSAGE);
  };
}
