import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { chunks, clientApps, urls, websites } from "../db/schema";
import { startTestHost } from "../../tests/support/test-host";
import { corpusStats } from "./corpus-stats";

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
    const [site] = await db.insert(websites).values({ appId: app.id, url: "https://pier.example.com", siteMap: "few_urls", status: "sitemap_generated" }).returning();
    const [page] = await db.insert(urls).values({ appId: app.id, websiteId: site.id, url: "https://pier.example.com/", title: "Pier", status: "indexed" }).returning();
    const passage = (position: number, text: string) => db.insert(chunks).values({ appId: app.id, urlId: page.id, position, text });
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
});
