import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CROSS_SITE_MESSAGE, crossSiteRefusal, refuseCrossSiteWrites } from "./same-origin.server";

describe("crossSiteRefusal", () => {
  const write = { method: "POST", path: "/northfield/manage", host: "console.example:3000" };
  it.each([
    ["a same-origin form (Sec-Fetch-Site)", { secFetchSite: "same-origin", origin: "http://console.example:3000" }, false],
    ["a same-origin post from an older browser (Origin only)", { origin: "http://console.example:3000" }, false],
    ["a client that is not a browser (no Origin, no Sec-Fetch-Site)", {}, false],
    ["another site's form", { secFetchSite: "cross-site", origin: "https://evil.example" }, true],
    ["a sibling subdomain", { secFetchSite: "same-site", origin: "http://other.console.example:3000" }, true],
    ["Origin: null (sandboxed frame)", { origin: "null" }, true],
    ["another site, older browser", { origin: "https://evil.example" }, true],
    ["another port of this host", { origin: "http://console.example:4000" }, true],
    ["a garbled Origin", { origin: "::" }, true],
  ])("%s", (_name, headers, refused) => {
    expect(crossSiteRefusal({ ...write, secFetchSite: undefined, origin: undefined, ...headers }) !== null).toBe(refused);
  });

  it("lets reads through whatever their origin, and Google One Tap's own post", () => {
    expect(crossSiteRefusal({ ...write, method: "GET", origin: "https://evil.example", secFetchSite: "cross-site" })).toBeNull();
    expect(crossSiteRefusal({ ...write, path: "/login/google/one-tap", origin: "https://accounts.google.com", secFetchSite: "cross-site" })).toBeNull();
  });
});

describe("refuseCrossSiteWrites in front of the console", () => {
  let server: Server;
  let base: string;
  const writes: string[] = [];
  beforeAll(async () => {
    const app = express();
    app.use(refuseCrossSiteWrites());
    // Stands for a Remix action answering a ?_data= request.
    app.post("/northfield/manage", (req, res) => {
      writes.push(req.url);
      res.status(204).end();
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server?.close());

  const post = (headers: Record<string, string>) =>
    fetch(`${base}/northfield/manage?_data=routes%2F%24appName.manage`, {
      method: "POST", headers: { cookie: "__session=stolen", "content-type": "application/x-www-form-urlencoded", ...headers }, body: "name=Evil",
    });

  it("answers a cross-site post with a clear 403 and saves nothing", async () => {
    for (const origin of ["https://evil.example", "null"]) {
      const response = await post({ origin });
      expect(response.status).toBe(403);
      expect(await response.text()).toBe(CROSS_SITE_MESSAGE);
    }
    expect((await post({ "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect(writes).toEqual([]);
  });

  it("lets the console's own pages write", async () => {
    expect((await post({ origin: base, "sec-fetch-site": "same-origin" })).status).toBe(204);
    expect(writes).toHaveLength(1);
  });
});
