import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, urls, websites } from "../../db/schema";
import { startFixtureSite } from "../../../tests/support/fixture-site";
import { startTestHost } from "../../../tests/support/test-host";
import { until } from "../../../tests/support/wait";

let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;

beforeAll(async () => {
  site = await startFixtureSite();
  host = await startTestHost({ crawlAllowPrivate: true });
  // The database refuses this page's write, as it would a value out of its range: a refusal of ours, not the page's.
  await host.deps.db.execute(
    sql`alter table urls add constraint refuses_the_closed_campus check (title is distinct from 'Closed campus')`,
  );
  site.setRaw(
    "/closed",
    "text/html; charset=utf-8",
    "<html><head><title>Closed campus</title></head><body><main><h1>Closed campus</h1><p>The north campus is closed for the summer.</p></main></body></html>",
  );
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

describe("a page whose write the database refuses", () => {
  it("is failed with a sentence for the operator, never the statement or its values", async () => {
    const [app] = await host.deps.db
      .insert(clientApps)
      .values({ clientName: "Reasons", urlCode: "reasons" })
      .returning();
    const [website] = await host.deps.db
      .insert(websites)
      .values({
        appId: app.id,
        url: `${site.base}/closed`,
        siteMap: "few_urls",
        seedUrls: [],
        status: "sitemap_generated",
      })
      .returning();
    await host.deps.db
      .insert(urls)
      .values({ appId: app.id, websiteId: website.id, url: `${site.base}/closed`, status: "to_be_indexed" });
    await host.deps.jobs.send("website-process", { websiteId: website.id });
    const [row] = await until("the page's outcome", async () => {
      const found = await host.deps.db.select().from(urls).where(eq(urls.websiteId, website.id));
      return found[0].status === "failed_to_index" && found;
    });
    expect(row.metadata.error_message).toBe(
      "The page could not be saved because of an error on our side, which was logged; index it again to retry.",
    );
  });
});
