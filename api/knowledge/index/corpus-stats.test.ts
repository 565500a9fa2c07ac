import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { chunks, clientApps, urls, websites } from "../../db/schema";
import { startTestHost } from "../../../tests/support/test-host";
import { corpusStats, forgetCorpusStats, FREQUENCY_CAP } from "./corpus-stats";
import { vocabularyOf } from "./vocabulary";

let host: Awaited<ReturnType<typeof startTestHost>>;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());
afterEach(() => vi.useRealTimers());

describe("corpusStats", () => {
  it("keeps a word's passage count ten minutes through the minutely refresh, and asks again for a word it lacked", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const db = host.deps.db;
    const [app] = await db.insert(clientApps).values({ clientName: "Pier Museum", urlCode: "pier-museum" }).returning();
    const [site] = await db
      .insert(websites)
      .values({ appId: app.id, url: "https://pier.example.com", siteMap: "few_urls", status: "sitemap_generated" })
      .returning();
    const [page] = await db
      .insert(urls)
      .values({ appId: app.id, websiteId: site.id, url: "https://pier.example.com/", title: "Pier", status: "indexed" })
      .returning();
    const passage = (position: number, text: string) =>
      db.insert(chunks).values({ appId: app.id, urlId: page.id, position, text });
    await passage(0, "The harbor museum opens at ten.");

    const first = await corpusStats(app.id, ["harbor", "kayak"], db);
    expect([first.passages, first.frequencies.get("harbor"), first.frequencies.get("kayak")]).toEqual([1, 1, 0]);
    // Written behind the cache's back, as another process indexing pages would.
    await passage(1, "Kayak tours leave from the harbor steps.");

    vi.setSystemTime(Date.now() + 61_000);
    const minuteOn = await corpusStats(app.id, ["harbor", "kayak"], db);
    expect(minuteOn.passages).toBe(2);
    expect(minuteOn.frequencies.get("harbor")).toBe(1); // kept: about right is enough for a weight
    expect(minuteOn.frequencies.get("kayak")).toBe(1); // asked again: a word counted 0 may be read as a typo

    vi.setSystemTime(Date.now() + 600_000);
    const tenMinutesOn = await corpusStats(app.id, ["harbor"], db);
    expect(tenMinutesOn.frequencies.get("harbor")).toBe(2);
  });

  it("counts a word past the index's cap once the store's words are read, and by the index again once the store changed", async () => {
    const db = host.deps.db;
    const [app] = await db.insert(clientApps).values({ clientName: "Ferry Line", urlCode: "ferry-line" }).returning();
    const [site] = await db
      .insert(websites)
      .values({ appId: app.id, url: "https://ferry.example.com", siteMap: "few_urls", status: "sitemap_generated" })
      .returning();
    const [page] = await db
      .insert(urls)
      .values({
        appId: app.id,
        websiteId: site.id,
        url: "https://ferry.example.com/",
        title: "Ferry",
        status: "indexed",
      })
      .returning();
    const passages = FREQUENCY_CAP + 20;
    for (let from = 0; from < passages; from += 1000) {
      await db.insert(chunks).values(
        Array.from({ length: Math.min(1000, passages - from) }, (_, i) => ({
          appId: app.id,
          urlId: page.id,
          position: from + i,
          text: `The ferry leaves pier ${from + i} on the hour.`,
        })),
      );
    }

    // The first question is counted by the index, up to its cap, while the words are read behind it.
    const first = await corpusStats(app.id, ["ferri"], db);
    expect(first.frequencies.get("ferri")).toBe(FREQUENCY_CAP);
    await vocabularyOf(app.id, db);
    const read = await corpusStats(app.id, ["ferri", "hour"], db);
    expect([read.frequencies.get("ferri"), read.frequencies.get("hour")]).toEqual([passages, passages]);

    // Passages stored since the read: its counts are behind, so a word is counted by the index.
    await db
      .insert(chunks)
      .values({ appId: app.id, urlId: page.id, position: passages, text: "A kayak tour rounds the pier." });
    forgetCorpusStats(app.id);
    const changed = await corpusStats(app.id, ["pier", "kayak"], db);
    expect([changed.frequencies.get("pier"), changed.frequencies.get("kayak")]).toEqual([FREQUENCY_CAP, 1]);
  });
});
