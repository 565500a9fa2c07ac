import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { chunks, clientApps, urls, websites } from "../../db/schema";
import { rowsOf } from "../../db/rows";
import { startTestHost } from "../../../tests/support/test-host";
import { corpusStats } from "./corpus-stats";
import { BM25_B, BM25_K1, FIRST_STAGE_K } from "./ranking-constants";
import { firstStage, positionsIn, retrieve, tsvectorEntry, type QuestionTerm } from "./search";

let host: Awaited<ReturnType<typeof startTestHost>>;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

/** A new client with one page per `pages` entry, its passages stored in that order (ids rising). */
async function store(name: string, pages: Record<string, string[]>) {
  const db = host.deps.db;
  const [app] = await db.insert(clientApps).values({ clientName: name, urlCode: name }).returning();
  const [site] = await db
    .insert(websites)
    .values({ appId: app.id, url: `https://${name}.example.com`, siteMap: "few_urls", status: "sitemap_generated" })
    .returning();
  for (const [path, texts] of Object.entries(pages)) {
    const [page] = await db
      .insert(urls)
      .values({
        appId: app.id,
        websiteId: site.id,
        url: `https://${name}.example.com${path}`,
        title: "",
        status: "indexed",
      })
      .returning();
    // In slices, as a page's passages are written.
    for (let from = 0; from < texts.length; from += 500)
      await db
        .insert(chunks)
        .values(
          texts
            .slice(from, from + 500)
            .map((text, at) => ({ appId: app.id, urlId: page.id, position: from + at, text })),
        );
  }
  return app.id;
}

/** Plain Okapi BM25 of every passage of the client, worked out here over all of them: the best first (ties by id). */
async function bruteForce(appId: number, terms: QuestionTerm[]) {
  const { averageLength } = await corpusStats(appId, [], host.deps.db);
  const rows = rowsOf<{ id: number; length: number; tsv: string }>(
    await host.deps.db.execute(
      sql`select id, length(tsv) as length, tsv::text as tsv from chunks where app_id = ${appId} order by id`,
    ),
  );
  return rows
    .map((row) => {
      const norm = 1 - BM25_B + (BM25_B * Number(row.length)) / averageLength;
      let bm25 = 0;
      for (const term of terms) {
        const positions = positionsIn(row.tsv, tsvectorEntry(term.lexeme));
        if (!positions) continue;
        const tf = positions.length || 1;
        bm25 += (term.idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * norm);
      }
      return { id: Number(row.id), bm25 };
    })
    .filter((passage) => passage.bm25 > 0)
    .sort((a, b) => b.bm25 - a.bm25 || a.id - b.id);
}

const ask = (appId: number, query: string) => retrieve({ appId, query, limit: 5 }, host.deps);

describe("retrieval's first stage: plain BM25 over every passage holding a key word", () => {
  it("finds the best passage among more than 500 holding every key word, stored after the first 500", async () => {
    const filler = "lanterns, blankets, stoves, compasses, maps, tents, gloves, boots and ropes for the walk";
    const appId = await store("glacier-trust", {
      "/others": Array.from({ length: 1000 }, (_, n) => `The harbor kayak rental opens at nine, slip ${n}.`),
      "/trail": [
        ...Array.from(
          { length: 700 },
          (_, n) => `Every glacier visitor buys a permit; fees, stop ${n}, cover ${filler}, ${filler}.`,
        ),
        "Glacier permit fees: the glacier permit fees.",
      ],
    });
    const found = await ask(appId, "glacier permit fees");
    expect(found.hits[0].text).toBe("Glacier permit fees: the glacier permit fees.");
    expect(found.firstStage!.exact).toBe(true);
    const best = await bruteForce(appId, found.terms);
    expect(found.firstStage!.passages[0].id).toBe(best[0].id);
    expect(found.hits[0].chunkId).toBe(best[0].id);
  });

  it("finds the best passage when it holds only the question's common words and rarer ones are elsewhere", async () => {
    const appId = await store("ferry-trust", {
      "/museum": Array.from({ length: 1700 }, (_, n) => `The museum opens at nine and closes at five, room ${n}.`),
      "/ferry": [
        ...Array.from({ length: 300 }, (_, n) => `Lantern ferry crossing ${n}: the lantern ferry leaves the pier.`),
        "Lantern ferry. Lantern ferry. Lantern ferry.",
      ],
      // The rarest key word, in three long passages of another page.
      "/airships": Array.from(
        { length: 3 },
        (_, n) =>
          `A zeppelin, number ${n}, ` +
          Array.from({ length: 150 }, (_, w) => `word${String.fromCharCode(97 + (w % 26))}${Math.floor(w / 26)}`).join(
            " ",
          ),
      ),
    });
    const found = await ask(appId, "lantern ferry zeppelin");
    expect(found.hits[0].text).toBe("Lantern ferry. Lantern ferry. Lantern ferry.");
    expect(found.firstStage!.exact).toBe(true);
    expect(found.firstStage!.passages[0].id).toBe((await bruteForce(appId, found.terms))[0].id);
  });

  it("is plain BM25's best K exactly, or says it is not when a small budget stops it", async () => {
    // Three thousand passages, each holding a key word by its own chance (once to three times), among
    // words no question asks; a fixed sequence, so every run stores the same.
    const chances = {
      anchor: 0.6,
      harbor: 0.4,
      canal: 0.3,
      galley: 0.2,
      keel: 0.1,
      lagoon: 0.05,
      reef: 0.03,
      yacht: 0.01,
    };
    const others = "the boat left early and came back late with nets full of fish".split(" ");
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const passage = () => {
      const words = Array.from(
        { length: 2 + Math.floor(random() * 25) },
        () => others[Math.floor(random() * others.length)],
      );
      for (const [word, chance] of Object.entries(chances))
        if (random() < chance)
          for (let n = Math.floor(random() * 3); n >= 0; n--)
            words.splice(Math.floor(random() * words.length), 0, word);
      return words.join(" ");
    };
    const appId = await store("sea-trust", {
      "/a": Array.from({ length: 1500 }, passage),
      "/b": Array.from({ length: 1500 }, passage),
    });
    const stats = await corpusStats(appId, [], host.deps.db);
    let stoppedEarly = 0;
    let exactPastBudget = 0;
    for (const query of [
      "lagoon anchor harbor",
      "yacht canal galley",
      "harbor canal",
      "canal galley keel",
      "anchor keel lagoon reef",
      "anchor harbor canal",
    ]) {
      const { terms, firstStage: whole } = await ask(appId, query);
      const best = await bruteForce(appId, terms);
      // Within the budget: exactly plain BM25's best K, often without reading every passage holding a key word.
      expect(whole!.exact).toBe(true);
      expect(whole!.passages.map((p) => p.id)).toEqual(best.slice(0, FIRST_STAGE_K).map((p) => p.id));
      for (const [at, p] of whole!.passages.entries()) expect(p.bm25).toBeCloseTo(best[at].bm25, 9);
      if (whole!.read < best.length) stoppedEarly++;
      // With a budget below the passages holding the words: whatever it claims holds.
      const small = await firstStage(appId, terms, stats, host.deps.db, { budget: 500 });
      expect(small.read).toBeLessThanOrEqual(500);
      if (small.exact) {
        expect(small.passages.map((p) => p.id)).toEqual(best.slice(0, FIRST_STAGE_K).map((p) => p.id));
        if (best.length > 500) exactPastBudget++;
      }
      if (small.firstExact) expect(small.passages[0].id).toBe(best[0].id);
    }
    expect(stoppedEarly).toBeGreaterThan(0);
    expect(exactPastBudget).toBeGreaterThan(0);
  });
});
