import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { expect, request, test, type APIRequestContext } from "@playwright/test";
import { ownConsoleEnv, startConsoleProcess, type ConsoleProcess } from "../support/console-process";
import { E2E } from "./ports";

// Beside the main e2e servers and the hostile-request sweep's (base + 20).
const PORT = E2E.appPort + 21;
// What the hostile-request sweep gives its server: several times what the console needs.
const SERVER_HEAP_MB = 1024;
/** One sitemap's pages: 800,000 addresses of other hosts, about 46 MB unzipped, 2 MB gzipped. */
const PAGES_PER_SITEMAP = 800_000;
const SITEMAPS = 12;
/** "Still alive" means answering at once; a few seconds allows for a busy 2-core machine. */
const HEALTH_TIMEOUT_MS = 5_000;

/**
 * A site whose robots.txt names a sitemap index of twelve gzipped sitemaps, each at the protocol's
 * size limit and full of other hosts' pages, with two of the site's own pages among them: what
 * anyone can point a sitemap line at. It once held every address in memory before keeping the
 * site's own, and parsed each sitemap whole on the event loop: the server stopped answering in
 * seconds and died out of memory within a minute.
 */
function hostileSitemapSite() {
  let origin = "";
  const sitemap = (() => {
    const lines = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ];
    lines.push("<url><loc>ORIGIN/own-first</loc></url>");
    for (let i = 0; i < PAGES_PER_SITEMAP; i++)
      lines.push(`<url><loc>https://elsewhere-${i % 97}.example/p/${i}</loc></url>`);
    lines.push("<url><loc>ORIGIN/own-last</loc></url>", "</urlset>");
    return lines.join("\n");
  })();
  let zipped: Buffer | null = null;
  const server: Server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (url === "/robots.txt") return res.end(`User-agent: *\nSitemap: ${origin}/index.xml\n`);
    if (url === "/index.xml") {
      const children = Array.from(
        { length: SITEMAPS },
        (_, i) => `<sitemap><loc>${origin}/s/${i}.xml.gz</loc></sitemap>`,
      );
      res.setHeader("content-type", "application/xml");
      return res.end(`<?xml version="1.0"?><sitemapindex>${children.join("")}</sitemapindex>`);
    }
    if (url.startsWith("/s/")) {
      zipped ??= gzipSync(sitemap.replaceAll("ORIGIN", origin));
      res.setHeader("content-type", "application/gzip");
      return res.end(zipped);
    }
    res.setHeader("content-type", "text/html");
    res.end("<html><head><title>Own page</title></head><body><main><p>A page of the site.</p></main></body></html>");
  });
  return {
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, "127.0.0.1", () => {
          origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
          resolve(origin);
        }),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test.describe("hostile sitemaps", () => {
  test.setTimeout(300_000);

  let server: ConsoleProcess;
  let dataDir: string;
  let http: APIRequestContext;
  const site = hostileSitemapSite();

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    dataDir = mkdtempSync(path.join(tmpdir(), "console-e2e-sitemaps-"));
    // The hostile site is on this machine, as the demo site is; other private addresses stay refused by the rest of the suite.
    server = await startConsoleProcess(ownConsoleEnv(dataDir, PORT, { CRAWL_ALLOW_PRIVATE: "true" }), {
      heapMb: SERVER_HEAP_MB,
      startTimeoutMs: 120_000,
    });
    http = await request.newContext({ baseURL: server.url });
  });

  test.afterAll(async () => {
    await http?.dispose();
    await server?.stop();
    await site.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("sitemaps listing millions of other hosts' pages neither stall nor take down the server", async () => {
    const origin = await site.start();
    const signedIn = await http.post("/auth/dev", { data: { email: "admin@example.com" } });
    const headers = { authorization: `Bearer ${((await signedIn.json()) as { user_token: string }).user_token}` };
    const { apps } = (await (await http.get("/v1/apps?status=active", { headers })).json()) as {
      apps: { id: number; url_code: string }[];
    };
    const appId = apps.find((app) => app.url_code === "northfield")!.id;
    const website = { app_id: appId, url: `${origin}/`, site_map: "full_website", enabled: true, tags: [] };
    const saved = await http.post(`/v1/apps/${appId}/websites/create_and_update`, {
      headers: { ...headers, origin: new URL(server.url).origin },
      data: { websites: [{ ...website, skip_patterns: [], allowed_patterns: [] }] },
    });
    expect(saved.status(), await saved.text()).toBe(200);

    // Until the website is read, the server answers its health check at once, every time.
    let discovered: { status: string; last_error: string | null } | undefined;
    let slowest = 0;
    const deadline = Date.now() + 240_000;
    while (!discovered && Date.now() < deadline) {
      const asked = Date.now();
      const health = await http.get("/healthz", { timeout: HEALTH_TIMEOUT_MS });
      slowest = Math.max(slowest, Date.now() - asked);
      expect(health.status()).toBe(200);
      expect(server.exited(), server.lastOutput()).toBe(false);
      const listed = (await (await http.get(`/v1/apps/${appId}/websites`, { headers })).json()) as {
        websites: { url: string; status: string; last_error: string | null }[];
      };
      const ours = listed.websites.find((w) => w.url.startsWith(origin));
      if (ours && ours.status !== "pending_sitemap_generation") discovered = ours;
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
    console.log(`slowest health check while the sitemaps were read: ${slowest} ms`);
    expect(discovered?.status, discovered?.last_error ?? "").not.toBe("failed_to_index");
    // The site's own pages are kept; the reading stopped at its limit in all and says so.
    expect(discovered?.last_error).toContain("MB in all");
    const pages = (await (await http.get(`/v1/apps/${appId}/urls?page_size=100`, { headers })).json()) as {
      data: { url: string }[];
    };
    const ownPages = pages.data.map((page) => page.url).filter((url) => url.startsWith(origin));
    expect(ownPages.sort()).toEqual([`${origin}/own-first`, `${origin}/own-last`]);
  });
});
