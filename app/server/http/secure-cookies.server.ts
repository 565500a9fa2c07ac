import type { NextFunction, Request, Response } from "express";

const SECURE_ATTRIBUTE = /;\s*secure\s*(;|$)/i;

/** A Set-Cookie value with the Secure attribute, added only when it lacks one. */
export function withSecureAttribute(cookie: string) {
  return SECURE_ATTRIBUTE.test(cookie) ? cookie : `${cookie}; Secure`;
}

/**
 * Behind HTTPS (the browser's request, as a trusted proxy reports it), every cookie the console
 * sets is Secure: the session, but also the flash toast and the Google flow's return path, which
 * ninety-odd redirects set without knowing how the browser reached the server. A cookie without
 * it would be sent over plain HTTP to anyone on the way.
 */
export function secureCookiesOverHttps() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.secure) return next();
    const setHeader = res.setHeader.bind(res);
    res.setHeader = (name, value) => {
      if (name.toLowerCase() !== "set-cookie") return setHeader(name, value);
      const cookies = Array.isArray(value) ? value.map(String) : [String(value)];
      return setHeader(name, cookies.map(withSecureAttribute));
    };
    next();
  };
}
