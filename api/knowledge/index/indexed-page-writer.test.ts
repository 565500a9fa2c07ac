import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { clientApps, urls, websites } from "../../db/schema";
import { startTestHost } from "../../../tests/support/test-host";
import { IndexedPageWriter } from "./indexed-page-writer";
import { tsvectorOf } from "../words/lexemes";

/** Pages written in groups (indexed-page-writer.ts) and how their chunks are stored. */
let host: Awaited<ReturnType<typeof startTestHost>>;
const WORKER = "00000000-0000-4000-8000-0000000000a1";

beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

/** URLs of a new website, claimed by WORKER as a job claims them. */
async function claimedUrls(count: number) {
  const { db } = host.deps;
  const [app] = await db
    .insert(clientApps)
    .values({ clientName: "Writer", urlCode: `writer${Date.now()}` })
    .returning();
  const [website] = await db.insert(websites).values({ appId: app.id, url: "https://writer.example.edu/" }).returning();
  return db
    .insert(urls)
    .values(
      Array.from({ length: count }, (_, i) => ({
        appId: app.id,
        websiteId: website.id,
        url: `https://writer.example.edu/page-${i}`,
        status: "sent_for_indexing",
        claimedBy: WORKER,
      })),
    )
    .returning();
}

/** About 900 characters of ordinary prose, different for each seed. */
const passage = (seed: number) =>
  Array.from({ length: 150 }, (_, i) => `word${(seed * 7919 + i * 104729) % 5000}`).join(" ");

describe("writing indexed pages", () => {
  it("marks each page indexed with its chunks, in one go for pages finished together", async () => {
    const rows = await claimedUrls(3);
    const writer = new IndexedPageWriter(host.deps.db, WORKER);
    await Promise.all(
      rows.map((row, i) =>
        writer.write({
          row,
          title: `Page ${i}`,
          contentHash: `hash-${i}`,
          metadata: {},
          chunks: [0, 1].map((position) => ({
            position,
            headingPath: [`Page ${i}`],
            text: passage(i * 2 + position),
            tsv: tsvectorOf(passage(i * 2 + position)),
          })),
        }),
      ),
    );
    const stored = await host.deps.db.execute(sql`
      select u.status, u.title, u.claimed_by, count(c.id)::int as chunks from urls u left join chunks c on c.url_id = u.id
      where u.id in (${sql.join(
        rows.map((r) => sql`${r.id}`),
        sql`, `,
      )}) group by u.id order by u.id`);
    expect((stored as unknown as { rows: unknown[] }).rows).toEqual(
      rows.map((_, i) => ({ status: "indexed", title: `Page ${i}`, claimed_by: null, chunks: 2 })),
    );
  });

  it("keeps a chunk's text and lexemes in its own row instead of moving them out of line", async () => {
    // A chunk of ~900 characters with its tsvector is just over the 2 KB at which Postgres would
    // otherwise move the tsvector to the TOAST table (a second row and index entry per chunk).
    const [row] = await claimedUrls(1);
    const text = passage(99);
    await new IndexedPageWriter(host.deps.db, WORKER).write({
      row,
      title: "Long",
      contentHash: "long",
      metadata: {},
      chunks: [{ position: 0, headingPath: [], text, tsv: tsvectorOf(text) }],
    });
    const result = await host.deps.db.execute(sql`
      select pg_column_size(c.*) as row_bytes, (select pg_class.reltoastrelid::regclass::text from pg_class where pg_class.oid = 'chunks'::regclass) as toast
      from chunks c where c.url_id = ${row.id}`);
    const [{ row_bytes: rowBytes, toast }] = (result as unknown as { rows: { row_bytes: number; toast: string }[] })
      .rows;
    expect(Number(rowBytes)).toBeGreaterThan(2100);
    const outOfLine = await host.deps.db.execute(sql.raw(`select count(*)::int as n from ${toast}`));
    expect((outOfLine as unknown as { rows: { n: number }[] }).rows[0].n).toBe(0);
  });
});
