import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps, websites } from "../db/schema";
import { startTestHost } from "../../tests/support/test-host";
import { closestInventoryPages } from "./gap-pages";

let host: Awaited<ReturnType<typeof startTestHost>>;
let appId: number;

beforeAll(async () => {
  host = await startTestHost();
  const { db } = host.deps;
  [{ id: appId }] = await db.select({ id: clientApps.id }).from(clientApps).where(eq(clientApps.urlCode, "northfield"));
  const [site] = await db
    .insert(websites)
    .values({ appId, url: "https://www.example.edu/", siteMap: "few_urls", status: "sitemap_generated" })
    .returning({ id: websites.id });
  // Far more pages under a common word than one term reads, and one page that holds a rarer word too.
  await db.execute(sql`
    insert into urls (app_id, website_id, url, title, status)
    select ${appId}, ${site.id}, 'https://www.example.edu/campus/news-' || p, 'Campus news ' || p, 'indexed'
    from generate_series(1, 1500) as p`);
  await db.execute(sql`
    insert into urls (app_id, website_id, url, title, status)
    values (${appId}, ${site.id}, 'https://www.example.edu/campus/news-and-the-velodrome-track-guide', 'Track', 'skipped')`);
});
afterAll(() => host?.close());

describe("the inventory's pages closest to an unanswered question", () => {
  it("finds the page holding the question's rarer word among more common-word pages than are read", async () => {
    const question = "where is the campus velodrome";
    const found = await closestInventoryPages(appId, [question], host.deps);
    expect(found.get(question)?.[0]).toMatchObject({
      url: "https://www.example.edu/campus/news-and-the-velodrome-track-guide",
      state: "skipped",
    });
  });

  it("still lists pages for a question whose only words are common ones", async () => {
    const question = "campus news";
    const pages = (await closestInventoryPages(appId, [question], host.deps)).get(question)!;
    expect(pages).toHaveLength(3);
    for (const page of pages) expect(page.url).toContain("/campus/news-");
  });
});
