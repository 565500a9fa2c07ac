import type { Server } from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, urls, websites } from "../../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../../tests/support/test-host";
import { startLoopbackSite } from "../../../tests/support/loopback-site";
import { until } from "../../../tests/support/wait";
import { addFullWebsite } from "../../../tests/support/websites";

/**
 * A sitemap is outside input: it may write a user name and password into its pages' addresses,
 * which '+ Links' and the websites form refuse. The pages are stored, listed and shown without them.
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;
let site: Server;
let base: string;
/** The site's address with a user name and password written into it. */
let withPassword: string;
/** The pages /sitemap.xml lists, as the site writes them. */
let listed: string[] = [];
/** The site's robots.txt, once a test gives it one. */
let robots: string | null = null;
/** The sitemaps /index.xml, a sitemap index, names. */
let indexed: string[] = [];

const sitemap = () =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${listed
    .map((loc) => `<url><loc>${loc}</loc><lastmod>2026-11-01</lastmod></url>`)
    .join("")}</urlset>`;

const sitemapIndex = () =>
  `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${indexed
    .map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`)
    .join("")}</sitemapindex>`;

beforeAll(async () => {
  ({
    server: site,
    base,
    withPassword,
  } = await startLoopbackSite((req, res) => {
    if (req.url === "/sitemap.xml") res.writeHead(200, { "content-type": "application/xml" }).end(sitemap());
    else if (req.url === "/index.xml") res.writeHead(200, { "content-type": "application/xml" }).end(sitemapIndex());
    else if (req.url === "/robots.txt" && robots !== null)
      res.writeHead(200, { "content-type": "text/plain" }).end(robots);
    else res.writeHead(404).end("Not found");
  }));
  host = await startTestHost({ crawlAllowPrivate: true });
  call = apiCaller(host);
  token = (await signInAs(host, "client.admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
});
afterAll(async () => {
  await host?.close();
  site?.close();
});

const addWebsite = (url: string) => addFullWebsite(call, token, appId, url);
const websiteRow = async (id: number) => (await host.deps.db.select().from(websites).where(eq(websites.id, id)))[0];
const pagesOf = async (id: number) =>
  Object.fromEntries(
    (await host.deps.db.select().from(urls).where(eq(urls.websiteId, id))).map((row) => [
      row.url,
      row.sitemapRefreshReviewStatus,
    ]),
  );

describe("pages read from a sitemap", () => {
  it("are stored without the user name and password the sitemap wrote into their addresses, at discovery and refresh", async () => {
    listed = [`${withPassword}/apply`, `${base.replace("://", "://editor@")}/tour#top`, `${base}/visit`];
    const websiteId = await addWebsite(`${base}/`);
    await until("the sitemap to be read", async () => (await websiteRow(websiteId)).status === "sitemap_generated");
    expect(Object.keys(await pagesOf(websiteId)).sort()).toEqual([`${base}/apply`, `${base}/tour`, `${base}/visit`]);

    // Read again: the page is the one stored, not a new one beside it, and the new page has no password either.
    listed = [...listed, `${withPassword}/fees`];
    expect((await call("POST", "/sitemap_refresh", { token, body: { id: websiteId } })).status).toBe(202);
    await until("the refresh's record", async () => (await websiteRow(websiteId)).lastSitemapRefresh?.finished_at);
    expect(await pagesOf(websiteId)).toEqual({
      [`${base}/apply`]: "unchanged",
      [`${base}/tour`]: "unchanged",
      [`${base}/visit`]: "unchanged",
      [`${base}/fees`]: "new",
    });
    const { body } = await call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls?page_size=100`, { token });
    expect(JSON.stringify(body)).not.toMatch(/s3cret|editor@/);
  });

  it("are named without their password when a website keeps none of them", async () => {
    listed = ["http://editor:s3cret@elsewhere.example/page"];
    const websiteId = await addWebsite(`${base}/second/`);
    await until("the sitemap to be read", async () => (await websiteRow(websiteId)).status === "sitemap_generated");
    expect((await websiteRow(websiteId)).lastError).toBe(
      "The sitemaps list 1 page, none of them on this website's host or kept by its patterns and robots.txt (the first: http://elsewhere.example/page)",
    );
  });

  // Last: robots.txt is the whole site's.
  it("come from sitemaps robots.txt and an index name with a password, read and kept without it", async () => {
    listed = [`${base}/apply`];
    robots = `User-agent: *\nAllow: /\nSitemap: ${withPassword}/index.xml\n`;
    indexed = [`${withPassword}/sitemap.xml`];
    const websiteId = await addWebsite(`${base}/third/`);
    await until(
      "the sitemaps to be read",
      async () => (await websiteRow(websiteId)).status !== "pending_sitemap_generation",
    );
    const row = await websiteRow(websiteId);
    expect({ status: row.status, sitemaps: row.sitemaps, lastError: row.lastError }).toEqual({
      status: "sitemap_generated",
      sitemaps: [`${base}/index.xml`, `${base}/sitemap.xml`],
      lastError: null,
    });
    expect(Object.keys(await pagesOf(websiteId))).toEqual([`${base}/apply`]);
  });
});
