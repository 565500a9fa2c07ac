import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, urls, websites } from "../../db/schema";
import { startFixtureSite } from "../../../tests/support/fixture-site";
import { startTestHost } from "../../../tests/support/test-host";
import { until } from "../../../tests/support/wait";
import { busyWaitMs } from "./index-website";

/** A site that answers "too many requests" (429) or "unavailable" (503) with Retry-After. */
let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let appId: number;

beforeAll(async () => {
  site = await startFixtureSite();
  // One request at a time to the host: the pages are asked for in the order they were stored.
  host = await startTestHost({ crawlAllowPrivate: true, crawlConcurrencyPerHost: 1 });
  [{ id: appId }] = await host.deps.db.insert(clientApps).values({ clientName: "Busy", urlCode: "busy" }).returning();
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

/** Indexes the given paths of the fixture site as one website of given URLs; answers each page's row by path. */
async function indexPaths(paths: string[]) {
  const [website] = await host.deps.db
    .insert(websites)
    .values({ appId, url: `${site.base}${paths[0]}`, siteMap: "few_urls", seedUrls: [], status: "sitemap_generated" })
    .returning();
  for (const path of paths)
    await host.deps.db
      .insert(urls)
      .values({ appId, websiteId: website.id, url: `${site.base}${path}`, status: "to_be_indexed" });
  await host.deps.jobs.send("website-process", { websiteId: website.id });
  const rows = await until(
    "the pages' outcomes",
    async () => {
      const found = await host.deps.db.select().from(urls).where(eq(urls.websiteId, website.id));
      return found.every((row) => row.status === "indexed" || row.status === "failed_to_index") && found;
    },
    20_000,
  );
  return Object.fromEntries(rows.map((row) => [row.url.replace(site.base, ""), row]));
}

describe("a site that asks the crawler to slow down", () => {
  it("reads Retry-After in seconds or as a date; a 503 that does not say when is down, not busy", () => {
    const now = Date.parse("2026-03-01T12:00:00Z");
    expect(busyWaitMs({ status: 429, retryAfter: "3" }, now)).toBe(3000);
    expect(busyWaitMs({ status: 503, retryAfter: "Sun, 01 Mar 2026 12:02:00 GMT" }, now)).toBe(120_000);
    expect(busyWaitMs({ status: 429, retryAfter: null }, now)).toBe(10_000);
    expect(busyWaitMs({ status: 503, retryAfter: null }, now)).toBeNull();
    expect(busyWaitMs({ status: 200, retryAfter: "3" }, now)).toBeNull();
  });

  it("waits as long as the site asked, then asks again and indexes the page", async () => {
    site.setBusy("/about", 429, "1", 1);
    const rows = await indexPaths(["/about"]);
    expect(rows["/about"]).toMatchObject({ status: "indexed", title: "About | Northfield" });
    const [first, second] = site.askedAt("/about").slice(-2);
    expect(second - first).toBeGreaterThanOrEqual(950);
  });

  it("asks nothing more of a site that asked for a longer rest, and says so under each page", async () => {
    site.setBusy("/admissions", 503, "3600", 5);
    const askedBefore = site.askedAt("/landing").length;
    const rows = await indexPaths(["/admissions", "/landing"]);
    const line =
      "The site is busy (HTTP 503) and asked the crawler not to come back for 60 minutes; index the page again later";
    expect(rows["/admissions"]).toMatchObject({ status: "failed_to_index", metadata: { error_message: line } });
    expect(rows["/landing"]).toMatchObject({
      status: "failed_to_index",
      metadata: {
        error_message:
          "The site is busy and asked the crawler not to come back for 60 minutes; index the page again later",
      },
    });
    expect(site.askedAt("/admissions")).toHaveLength(1);
    expect(site.askedAt("/landing")).toHaveLength(askedBefore);
  });
});

describe("a site whose robots.txt cannot be read", () => {
  it("fetches none of its pages while robots.txt answers 5xx, and says why under each", async () => {
    site.setBusy("/robots.txt", 500, null, 100);
    try {
      const askedBefore = site.askedAt("/about").length;
      const rows = await indexPaths(["/about"]);
      expect(rows["/about"]).toMatchObject({
        status: "failed_to_index",
        metadata: {
          error_message:
            "The site's robots.txt could not be read (HTTP 500), so none of its pages is fetched until it can be; index the page again later",
        },
      });
      expect(site.askedAt("/about")).toHaveLength(askedBefore);
    } finally {
      site.setBusy("/robots.txt", 500, null, 0);
    }
  });
});
