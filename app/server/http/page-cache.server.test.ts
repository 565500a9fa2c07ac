import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PageCache } from "./page-cache.server";

// A real Express server on 127.0.0.1 with the cache where server.ts puts it: after compression and
// the security headers (a fresh nonce each answer), before the pages.
let clock = 0;
let live = true;
let rendered = 0;
let releaseSlow: (() => void) | null = null;
const cache = new PageCache({
  isLive: () => live,
  sessionCookie: "__session",
  reusable: (res) => res.locals.unreusable !== true,
  ttlMs: 5_000,
  maxEntries: 3,
  now: () => clock,
});

const app = express();
app.use(compression());
app.use((_req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  res.setHeader("Content-Security-Policy", `script-src 'nonce-${res.locals.cspNonce}'`);
  next();
});
app.use(cache.middleware);
// Over compression's threshold (1 KB), so the answer from memory is compressed like the first.
const page = (res: express.Response) => `<html><script nonce="${res.locals.cspNonce}">render ${++rendered}</script>${"<p>text</p>".repeat(200)}</html>`;
app.get("/page", (_req, res) => {
  res.setHeader("X-Page", "kept with the page");
  res.type("html").send(page(res));
});
app.get("/data", (_req, res) => res.json({ render: ++rendered }));
app.get("/with-cookie", (_req, res) => res.cookie("__toast", "gone").type("html").send(page(res)));
app.get("/no-store", (_req, res) => res.set("Cache-Control", "no-store").type("html").send(page(res)));
app.get("/download", (_req, res) => res.attachment("urls.csv").type("html").send(page(res)));
app.get("/missing", (_req, res) => res.status(404).type("html").send(page(res)));
app.get("/jobs", (_req, res) => {
  res.locals.unreusable = true;
  res.type("html").send(page(res));
});
app.get("/slow", async (_req, res) => {
  await new Promise<void>((resolve) => (releaseSlow = resolve));
  res.type("html").send(page(res));
});
app.post("/write", (_req, res) => res.status(204).end());

let base = "";
let server: ReturnType<typeof app.listen>;
beforeAll(async () => {
  server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  cache.changed();
  live = true;
  clock = 0;
});

const SESSION = "__session=signed-in; theme=dark";
async function get(path: string, headers: Record<string, string> = { cookie: SESSION }) {
  const response = await fetch(`${base}${path}`, { headers: { "accept-encoding": "br, gzip", ...headers } });
  const body = await response.text();
  const nonce = /nonce="([^"]+)"/.exec(body)?.[1];
  return { response, body, nonce, render: Number(/render (\d+)/.exec(body)?.[1]) };
}

describe("signed-in pages answered again from memory", () => {
  it("answers the same session's page again with a nonce of its own, until something changes", async () => {
    const first = await get("/page");
    const again = await get("/page");
    expect(again.render).toBe(first.render);
    expect(again.response.headers.get("x-page")).toBe("kept with the page");
    expect(again.response.headers.get("content-encoding")).toBe("br");
    expect(again.nonce).not.toBe(first.nonce);
    expect(again.response.headers.get("content-security-policy")).toBe(`script-src 'nonce-${again.nonce}'`);
    expect(again.body).not.toContain(first.nonce);

    cache.changed();
    expect((await get("/page")).render).toBe(first.render + 1);
  });

  it("keeps loader data answers too", async () => {
    const first = await get("/data");
    expect((await get("/data")).body).toBe(first.body);
  });

  it("never shares a page between sessions, and keeps none without a session or with a bearer token", async () => {
    const first = await get("/page");
    expect((await get("/page", { cookie: "__session=someone-else" })).render).toBe(first.render + 1);
    expect((await get("/page", { cookie: `${SESSION}; __toast=hello` })).render).toBe(first.render + 2);
    const signedOut = await get("/page", {});
    expect((await get("/page", {})).render).toBe(signedOut.render + 1);
    const bearer = { cookie: SESSION, authorization: "Bearer token" };
    const withToken = await get("/page", bearer);
    expect((await get("/page", bearer)).render).toBe(withToken.render + 1);
    const notTheSession = { cookie: "x__session=1" };
    const lookalike = await get("/page", notTheSession);
    expect((await get("/page", notTheSession)).render).toBe(lookalike.render + 1);
  });

  it("forgets every page when a write request comes through", async () => {
    const first = await get("/page");
    expect((await fetch(`${base}/write`, { method: "POST", headers: { cookie: SESSION } })).status).toBe(204);
    expect((await get("/page")).render).toBe(first.render + 1);
  });

  it("keeps no answer that sets a cookie, is not to be stored, is a download, is not a 200 or used data the notices do not cover", async () => {
    for (const path of ["/with-cookie", "/no-store", "/download", "/missing", "/jobs"]) {
      const first = await get(path);
      expect((await get(path)).render, path).toBe(first.render + 1);
    }
    expect(cache.size).toBe(0);
  });

  it("keeps a page a few seconds at most", async () => {
    const first = await get("/page");
    clock = 4_999;
    expect((await get("/page")).render).toBe(first.render);
    clock = 5_000;
    expect((await get("/page")).render).toBe(first.render + 1);
  });

  it("does not keep a page whose render saw a change begin", async () => {
    const slow = get("/slow");
    await expect.poll(() => releaseSlow).not.toBeNull();
    cache.changed();
    releaseSlow!();
    releaseSlow = null;
    const first = await slow;
    const again = get("/slow");
    await expect.poll(() => releaseSlow).not.toBeNull();
    releaseSlow!();
    releaseSlow = null;
    expect((await again).render).toBe(first.render + 1);
  });

  it("keeps and answers nothing while change notices are not arriving", async () => {
    live = false;
    const first = await get("/page");
    expect((await get("/page")).render).toBe(first.render + 1);
    live = true;
    const kept = await get("/page");
    live = false;
    expect((await get("/page")).render).toBe(kept.render + 1);
  });

  it("lets the least recently used page go first when over its budget", async () => {
    const pages = ["/page?a", "/page?b", "/page?c"];
    const first = await Promise.all(pages.map((path) => get(path)));
    await get("/page?a"); // now b is the least recently used
    await get("/page?d");
    expect(cache.size).toBe(3);
    expect((await get("/page?a")).render).toBe(first[0].render);
    expect((await get("/page?c")).render).toBe(first[2].render);
    expect((await get("/page?b")).render).toBeGreaterThan(first[2].render);
  });
});
