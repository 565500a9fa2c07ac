import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunks, clientApps, urls, websites } from "../../db/schema";
import { startTestHost } from "../../../tests/support/test-host";
import { tsvectorOf } from "../words/lexemes";
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
  const page = async (path: string, title: string, text: string, tsv?: string) => {
    const [row] = await db
      .insert(urls)
      .values({ appId, websiteId: site.id, url: `${SITE}${path}`, title, status: "indexed" })
      .returning();
    await db.insert(chunks).values({ appId, urlId: row.id, position: 0, text, tsv });
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
  // Its words as the pipeline reads them ("F-1" as two words, "I20" as one), not as Postgres' own parser does.
  const visas =
    "Students from abroad study here on an F-1 visa; the office sends each one an I20 form. Forms H-4, K-12 and W-2 are for families.";
  await page("/international/visas", "Visas", visas, tsvectorOf(visas));
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

describe("retrieval with a code written otherwise than the store writes it", () => {
  it("reads a code the store writes with a hyphen as its parts ('F1' for 'F-1')", async () => {
    const visa = await ask("Can students from abroad study on an F1 visa?");
    expect(visa.hits.map(pathOf)[0]).toBe("/international/visas");
    expect(visa.hits[0].baseScore).toBe(1);
    expect(visa.terms.filter((t) => t.corrected).map((t) => [t.lexeme, t.word])).toEqual([
      ["1", "1"],
      ["f", "f"],
    ]);
  });

  it("reads a code the store writes as one word joined ('I-20' for 'I20'), a stop word's letter too", async () => {
    const form = await ask("Who sends the I-20?");
    expect(form.hits.map(pathOf)[0]).toBe("/international/visas");
    expect(form.terms.find((t) => t.lexeme === "i20")).toMatchObject({ word: "20", corrected: true });
  });

  it("reads three codes of a question at most, as it corrects three misspellings", async () => {
    // Read in the order of their lexemes: "f1", "h4" and "k12" are, "w2" stays as asked.
    const { terms } = await ask("Which visa for f1 h4 k12 w2?");
    expect(terms.filter((t) => t.corrected).map((t) => t.lexeme)).toEqual(["1", "12", "4", "f", "h", "k"]);
    expect(terms.map((t) => t.lexeme)).toContain("w2");
  });

  it("leaves a code as asked when the store holds no reading of it, its parts held apart included", async () => {
    const unknown = await ask("When does the B52 leave?");
    expect(unknown.terms.map((t) => t.lexeme)).toContain("b52");
    expect(unknown.terms.some((t) => t.corrected)).toBe(false);
    // "studi" and "1" are both stored, never one after the other: "Study1" is not how the store writes a code.
    const apart = await ask("Who runs Study1?");
    expect(apart.terms.map((t) => t.lexeme)).toContain("study1");
    expect(apart.terms.some((t) => t.corrected)).toBe(false);
  });
});
