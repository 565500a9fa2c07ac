import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunks, clientApps, urls, websites } from "../../db/schema";
import { startFixtureSite } from "../../../tests/support/fixture-site";
import { startTestHost } from "../../../tests/support/test-host";
import { until } from "../../../tests/support/wait";

/** Pages that moved: an old address redirecting to one the website already has. */
let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let appId: number;

beforeAll(async () => {
  site = await startFixtureSite();
  host = await startTestHost({ crawlAllowPrivate: true });
  [{ id: appId }] = await host.deps.db.insert(clientApps).values({ clientName: "Moved", urlCode: "moved" }).returning();
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

describe("a page that redirects to another page of the website", () => {
  it("is not indexed a second time under its old address: the page's own URL keeps its passages", async () => {
    site.setRedirect("/old-admissions", `${site.base}/admissions`);
    const [website] = await host.deps.db
      .insert(websites)
      .values({ appId, url: `${site.base}/admissions`, siteMap: "few_urls", seedUrls: [], status: "sitemap_generated" })
      .returning();
    for (const path of ["/admissions", "/old-admissions", "/redirect-me"])
      await host.deps.db
        .insert(urls)
        .values({ appId, websiteId: website.id, url: `${site.base}${path}`, status: "to_be_indexed" });
    await host.deps.jobs.send("website-process", { websiteId: website.id });
    const rows = await until("the pages' outcomes", async () => {
      const found = await host.deps.db.select().from(urls).where(eq(urls.websiteId, website.id));
      return found.every((row) => row.status === "indexed" || row.status === "failed_to_index") && found;
    });
    const byPath = Object.fromEntries(rows.map((row) => [row.url.replace(site.base, ""), row]));
    expect(byPath["/admissions"].status).toBe("indexed");
    // A redirect to a page the website does not have is the page, under the address given.
    expect(byPath["/redirect-me"]).toMatchObject({ status: "indexed", title: "Landing | Northfield" });
    expect(byPath["/old-admissions"]).toMatchObject({
      status: "failed_to_index",
      metadata: {
        error_message: `The page redirects to ${site.base}/admissions, which this website has as a URL of its own: that URL keeps the page`,
      },
    });
    expect(await host.deps.db.select().from(chunks).where(eq(chunks.urlId, byPath["/old-admissions"].id))).toEqual([]);
  });
});
