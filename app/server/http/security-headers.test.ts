import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { securityHeaders, type SecurityHeaderOptions } from "./security-headers.server";

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

/** The middleware in front of a page that prints the nonce it was given, as the console's pages do. */
async function console_(options: Partial<SecurityHeaderOptions> = {}) {
  const app = express();
  app.set("trust proxy", "loopback");
  app.use(securityHeaders({ googleAuthorizationUrl: null, oneTap: false, publicOrigin: null, ...options }));
  app.get("/download", (_req, res) => {
    res.set("Cache-Control", "no-store").type("text/csv").send("a,b");
  });
  app.get("*", (_req, res) => {
    res.type("html").send(`<script nonce="${res.locals.cspNonce}"></script>`);
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  servers.push(server);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, { headers });
    return { headers: response.headers, body: await response.text() };
  };
}

const directives = (csp: string | null) =>
  Object.fromEntries(
    (csp ?? "")
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );

describe("security headers of console pages", () => {
  let get: Awaited<ReturnType<typeof console_>>;
  beforeAll(async () => {
    get = await console_();
  });

  it("allow scripts from this origin and this response's nonce only", async () => {
    const first = await get("/northfield/manage");
    const second = await get("/northfield/manage");
    const csp = directives(first.headers.get("content-security-policy"));
    const nonce = /nonce="([^"]+)"/.exec(first.body)![1];
    expect(csp["script-src"]).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(second.body).not.toContain(nonce);
    expect(csp["default-src"]).toEqual(["'self'"]);
    expect(csp["object-src"]).toEqual(["'none'"]);
    expect(csp["script-src"]).not.toContain("'unsafe-inline'");
    expect(csp["connect-src"]).toEqual(["'self'"]);
  });

  it("let nobody frame a page but the preview and the test page, by this origin, with one X-Frame-Options", async () => {
    const page = await get("/northfield/manage");
    expect(directives(page.headers.get("content-security-policy"))["frame-ancestors"]).toEqual(["'none'"]);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    for (const path of [
      "/northfield/agent/admissions/appearance/preview",
      "/northfield/agent/admissions/bot-testing/test-page",
    ]) {
      const framable = await get(path);
      expect(directives(framable.headers.get("content-security-policy"))["frame-ancestors"]).toEqual(["'self'"]);
      expect(framable.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    }
  });

  it("keep every page out of shared and browser caches, unless the route chose its own caching", async () => {
    for (const path of ["/northfield/manage", "/northfield/manage?_data=root", "/login"]) {
      expect((await get(path)).headers.get("cache-control"), path).toBe("private, no-store");
    }
    expect((await get("/download")).headers.get("cache-control")).toBe("no-store");
  });

  it("send a Permissions-Policy, and HSTS only over HTTPS", async () => {
    const plain = await get("/");
    expect(plain.headers.get("permissions-policy")).toContain("camera=()");
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    const secure = await get("/", { "x-forwarded-proto": "https" });
    expect(secure.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });

  it("open Google's One Tap and sign-in form target only when configured", async () => {
    const withGoogle = await console_({
      googleAuthorizationUrl: "https://accounts.google.com/o/oauth2/v2/auth",
      oneTap: true,
      publicOrigin: "https://chat.example",
    });
    const csp = directives((await withGoogle("/login")).headers.get("content-security-policy"));
    expect(csp["script-src"]).toContain("https://accounts.google.com/gsi/");
    expect(csp["script-src"]).toContain("https://chat.example");
    expect(csp["form-action"]).toEqual(["'self'", "https://accounts.google.com"]);
    const without = directives((await get("/login")).headers.get("content-security-policy"));
    expect(JSON.stringify(without)).not.toContain("google");
  });
});
