import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
// Remix's own check of a document post's Origin, as its request handler runs it after ours.
import { throwIfPotentialCSRFAttack } from "@remix-run/server-runtime/dist/actions.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CROSS_SITE_MESSAGE,
  crossSiteRefusal,
  refuseCrossSiteWrites,
  UNSAID_ORIGIN_MESSAGE,
  type WriteRequest,
} from "./same-origin.server";
import { SESSION_COOKIE } from "../session.server";

const HOST = "console.example:3000";
const SAME = `http://${HOST}`;
const FOREIGN = "https://evil.example";

/**
 * Every combination of what a browser may say of a post's origin, and whether the console takes it.
 * Origin and Referer: `same` (this console), `foreign`, `null` (Origin only) or `-` (not sent);
 * Sec-Fetch-Site as sent, `-` when not. The last column is the answer to a post carrying the
 * session cookie, then to one without it.
 */
const COMBINATIONS = `
  origin   fetch-site   referer   signed-in  anonymous
  same     same-origin  same      pass       pass
  same     same-origin  foreign   pass       pass
  same     same-origin  -         pass       pass
  same     cross-site   same      403        403
  same     cross-site   foreign   403        403
  same     cross-site   -         403        403
  same     -            same      pass       pass
  same     -            foreign   pass       pass
  same     -            -         pass       pass
  foreign  same-origin  same      403        403
  foreign  same-origin  foreign   403        403
  foreign  same-origin  -         403        403
  foreign  cross-site   same      403        403
  foreign  cross-site   foreign   403        403
  foreign  cross-site   -         403        403
  foreign  -            same      403        403
  foreign  -            foreign   403        403
  foreign  -            -         403        403
  -        same-origin  same      pass       pass
  -        same-origin  foreign   pass       pass
  -        same-origin  -         pass       pass
  -        cross-site   same      403        403
  -        cross-site   foreign   403        403
  -        cross-site   -         403        403
  -        -            same      pass       pass
  -        -            foreign   403        403
  -        -            -         403        pass
  -        same-site    same      403        403
  -        none         same      403        403
  null     same-origin  -         pass       pass
  null     same-origin  same      pass       pass
  null     -            same      403        403
  null     -            -         403        403
`;

interface Combination {
  origin?: string;
  secFetchSite?: string;
  referer?: string;
  signedIn: "pass" | "403";
  anonymous: "pass" | "403";
}

const urlOf = (value: string, path: string) =>
  value === "same" ? `${SAME}${path}` : value === "foreign" ? `${FOREIGN}${path}` : value;
const combinations: Combination[] = COMBINATIONS.trim()
  .split("\n")
  .slice(1)
  .map((line) => {
    const [origin, site, referer, signedIn, anonymous] = line.trim().split(/\s+/);
    return {
      origin: origin === "-" ? undefined : urlOf(origin, ""),
      secFetchSite: site === "-" ? undefined : site,
      referer: referer === "-" ? undefined : urlOf(referer, "/northfield/manage"),
      signedIn: signedIn as Combination["signedIn"],
      anonymous: anonymous as Combination["anonymous"],
    };
  });
const named = (c: Combination) =>
  `Origin ${c.origin ?? "-"}, Sec-Fetch-Site ${c.secFetchSite ?? "-"}, Referer ${c.referer ?? "-"}`;

describe("crossSiteRefusal", () => {
  const write: WriteRequest = {
    method: "POST",
    path: "/northfield/manage",
    host: HOST,
    origin: undefined,
    secFetchSite: undefined,
    referer: undefined,
    signedIn: true,
  };

  it.each(combinations.map((c) => [named(c), c] as const))("%s", (_name, c) => {
    const headers = { origin: c.origin, secFetchSite: c.secFetchSite, referer: c.referer };
    expect(crossSiteRefusal({ ...write, ...headers, signedIn: true }) === null ? "pass" : "403", "signed in").toBe(
      c.signedIn,
    );
    expect(crossSiteRefusal({ ...write, ...headers, signedIn: false }) === null ? "pass" : "403", "anonymous").toBe(
      c.anonymous,
    );
  });

  it.each([
    ["another port of this host", { origin: "http://console.example:4000" }],
    ["a sibling subdomain", { origin: "http://other.console.example:3000", secFetchSite: "same-site" }],
    ["a garbled Origin", { origin: "::" }],
    ["a garbled Referer", { referer: "not a url" }],
    ["a Referer of another port", { referer: "http://console.example:4000/northfield/manage" }],
  ])("refuses %s", (_name, headers) => {
    expect(crossSiteRefusal({ ...write, ...headers })).not.toBeNull();
  });

  it("says why: another site, or a signed-in post that names no page", () => {
    const foreignReferer = crossSiteRefusal({ ...write, referer: `${FOREIGN}/` });
    expect(foreignReferer).toEqual({ evidence: `Referer: ${FOREIGN}/`, message: CROSS_SITE_MESSAGE });
    expect(crossSiteRefusal(write)?.message).toBe(UNSAID_ORIGIN_MESSAGE);
  });

  it("lets reads through whatever their origin, and Google One Tap's own post", () => {
    expect(crossSiteRefusal({ ...write, method: "GET", origin: FOREIGN, secFetchSite: "cross-site" })).toBeNull();
    expect(crossSiteRefusal({ ...write, method: "HEAD" })).toBeNull();
    const oneTap = { path: "/login/google/one-tap", origin: "https://accounts.google.com", secFetchSite: "cross-site" };
    expect(crossSiteRefusal({ ...write, ...oneTap })).toBeNull();
  });
});

describe("refuseCrossSiteWrites in front of the console", () => {
  let server: Server;
  let base: string;
  let proxied: Server;
  let proxiedBase: string;
  const writes: string[] = [];

  const listen = async (trustProxy: string | null) => {
    const app = express();
    if (trustProxy) app.set("trust proxy", trustProxy);
    app.use(refuseCrossSiteWrites());
    // Stands for a Remix action answering a ?_data= request.
    app.post("/northfield/manage", (req, res) => {
      writes.push(req.url);
      res.status(204).end();
    });
    // Stands for a plain form post (no JavaScript): Remix checks the Origin again before the action,
    // and answers an empty 500 when its check throws.
    app.post("/logout", (req, res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      try {
        throwIfPotentialCSRFAttack(headers);
      } catch {
        return res.status(500).end();
      }
      writes.push(req.url);
      res.status(204).end();
    });
    const listening = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    return { listening, url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}` };
  };

  beforeAll(async () => {
    ({ listening: server, url: base } = await listen(null));
    ({ listening: proxied, url: proxiedBase } = await listen("loopback"));
  });
  afterAll(() => {
    server?.close();
    proxied?.close();
  });

  const post = (headers: Record<string, string>, to = base) =>
    fetch(`${to}/northfield/manage?_data=routes%2F%24appName.manage`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: "name=Evil",
    });
  const signedIn = { cookie: `theme=dark; ${SESSION_COOKIE}=sealed` };

  it("answers every combination as the rule says, with a message and without saving a refused one", async () => {
    for (const c of combinations) {
      // The console as the browser addressed it: the test server's own host stands for "same".
      const local = (value: string | undefined) => value?.replace(SAME, base);
      const sent = { origin: local(c.origin), "sec-fetch-site": c.secFetchSite, referer: local(c.referer) };
      const headers = Object.fromEntries(
        Object.entries(sent).filter((entry): entry is [string, string] => entry[1] !== undefined),
      );
      for (const [cookie, expected] of [
        [signedIn, c.signedIn],
        [{}, c.anonymous],
      ] as const) {
        const before = writes.length;
        const response = await post({ ...headers, ...cookie });
        const what = `${named(c)}${"cookie" in cookie ? ", signed in" : ""}`;
        expect(response.status === 204 ? "pass" : String(response.status), what).toBe(expected);
        if (expected === "403") {
          expect(await response.text(), what).toMatch(
            /^This request (came from another site|did not say which page it came from)/,
          );
          expect(response.headers.get("cache-control"), what).toBe("no-store");
          expect(writes.length, what).toBe(before);
        }
      }
    }
  });

  it("answers a signed-in post that names no page with what to allow", async () => {
    const response = await post(signedIn);
    expect(response.status).toBe(403);
    expect(await response.text()).toBe(UNSAID_ORIGIN_MESSAGE);
    expect((await post({ ...signedIn, referer: `${FOREIGN}/` })).status).toBe(403);
  });

  it("leaves Remix's own check nothing to misread in a post it lets through", async () => {
    const documentPost = (headers: Record<string, string>, to = base) =>
      fetch(`${to}/logout`, { method: "POST", headers: { ...signedIn, ...headers } });
    // A page whose referrer policy is no-referrer posts with `Origin: null`; Sec-Fetch-Site vouches for it.
    expect((await documentPost({ origin: "null", "sec-fetch-site": "same-origin" })).status).toBe(204);
    // A forwarded host that no trusted proxy sent is the client's own claim, and changes nothing.
    expect((await documentPost({ origin: base, "x-forwarded-host": "elsewhere.example" })).status).toBe(204);
    // Behind a trusted proxy the forwarded host is the one the browser addressed, for both checks.
    const forwarded = { "x-forwarded-host": "console.example" };
    expect((await documentPost({ ...forwarded, origin: "https://console.example" }, proxiedBase)).status).toBe(204);
    // What is refused stays refused, with its message.
    const refused = await documentPost({ origin: "null" });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe(CROSS_SITE_MESSAGE);
  });

  it("compares Origin and Referer with the host the browser addressed, behind a trusted proxy", async () => {
    const forwarded = { ...signedIn, "x-forwarded-host": "console.example" };
    expect(
      (await post({ ...forwarded, referer: "https://console.example/northfield/manage" }, proxiedBase)).status,
    ).toBe(204);
    expect((await post({ ...forwarded, origin: "https://console.example" }, proxiedBase)).status).toBe(204);
    expect((await post({ ...forwarded, referer: `${proxiedBase}/northfield/manage` }, proxiedBase)).status).toBe(403);
    // Not trusted: a forwarded host is the client's own claim, and the Host header decides.
    expect((await post({ ...forwarded, referer: "https://console.example/northfield/manage" })).status).toBe(403);
    expect((await post({ ...forwarded, referer: `${base}/northfield/manage` })).status).toBe(204);
  });
});
