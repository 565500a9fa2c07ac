import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunks, clientApps, urls, websites } from "../../db/schema";
import { startTestHost } from "../../../tests/support/test-host";
import { retrieve } from "./search";

let host: Awaited<ReturnType<typeof startTestHost>>;
let appId: number;
const SITE = "https://www.northfield.edu";

/** Three pages whose words a visitor may misspell, and one about a river. */
beforeAll(async () => {
  host = await startTestHost();
  const db = host.deps.db;
  appId = (await db.select().from(clientApps)).find((a) => a.urlCode === "northfield")!.id;
  const [site] = await db
    .insert(websites)
    .values({ appId, url: SITE, siteMap: "few_urls", status: "sitemap_generated" })
    .returning();
  const page = async (path: string, title: string, text: string) => {
    const [row] = await db
      .insert(urls)
      .values({ appId, websiteId: site.id, url: `${SITE}${path}`, title, status: "indexed" })
      .returning();
    await db.insert(chunks).values({ appId, urlId: row.id, position: 0, text });
  };
  await page(
    "/network/delivery",
    "Delivery",
    "In the virtual call system, the network guarantees sequenced delivery of data to the host.",
  );
  await page(
    "/network/history",
    "History",
    "The ARPANET was the first network to use packet switching across the country.",
  );
  await page("/campus/river", "The river", "The river flows north past the campus boathouse.");
});
afterAll(() => host?.close());

const ask = (query: string) => retrieve({ appId, query, limit: 5 }, host.deps);
const pathOf = (hit: { url: string | null }) => hit.url?.replace(SITE, "");

describe("retrieval with misspelt words", () => {
  it("reads a word found in no passage, and not English, as the stored word it nearly is", async () => {
    const delivery = await ask("What does the network gaurentee?");
    expect(delivery.hits.map(pathOf)[0]).toBe("/network/delivery");
    // Every key word is found once the typo is read as "guarantee": the confidence is whole.
    expect(delivery.hits[0].baseScore).toBe(1);
    expect(delivery.terms.map((t) => t.lexeme)).toContain("guarante");
    const history = await ask("first network using ARPNET");
    expect(history.hits.map(pathOf)[0]).toBe("/network/history");
    expect(history.hits[0].baseScore).toBe(1);
  });

  it("leaves an English word the store lacks as asked, so it still weighs against the confidence", async () => {
    // "rider" is one letter from "river", but it is a word of its own: nothing here speaks of riders.
    const rider = await ask("Where does the rider go north?");
    expect(rider.terms.map((t) => t.lexeme)).toContain("rider");
    expect(rider.hits.every((hit) => hit.baseScore < 0.5)).toBe(true);
  });

  it("corrects three misspelt words of a question at most", async () => {
    const stored = ["network", "guarante", "sequenc", "deliveri", "virtual"];
    const { terms } = await ask("virtaul netwrok gaurentee sequnced delivry");
    expect(terms).toHaveLength(5);
    expect(terms.filter((term) => stored.includes(term.lexeme))).toHaveLength(3);
  });

  it("leaves a word near no stored word as asked", async () => {
    const unknown = await ask("zzyzzx network");
    expect(unknown.terms.map((t) => t.lexeme)).toContain("zzyzzx");
    expect(unknown.hits.every((hit) => hit.baseScore < 0.5)).toBe(true);
  });
});
