import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openFreshDatabase } from "../../../tests/support/test-host";
import type { DatabaseHandle } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { clientApps, urls, websites } from "../../db/schema";
import { relexemeStalePassages } from "./relexeme";
import { searchChunks } from "./search";

// On embedded PGlite, or on a throw-away database of the Postgres lane's server.
let handle: DatabaseHandle;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ handle, close } = await openFreshDatabase());
});
afterAll(() => close?.());

/** A migration's last statement: the one that marks the passages whose lexemes are made again. */
const markingStatement = (migration: string) =>
  readFileSync(path.resolve(`api/db/migrations/${migration}.sql`), "utf8")
    .split("--> statement-breakpoint")
    .at(-1)!;

it("makes again, from their text, title and headings, the lexemes of passages indexed with each run of Chinese, Japanese or Thai as one word", async () => {
  const { db } = handle;
  const [app] = await db.insert(clientApps).values({ clientName: "Relexeme", urlCode: "relexeme" }).returning();
  const [website] = await db
    .insert(websites)
    .values({ appId: app.id, url: "https://example.cn", siteMap: "few_urls" })
    .returning();
  const [page] = await db
    .insert(urls)
    .values({
      appId: app.id,
      websiteId: website.id,
      url: "https://example.cn/fees",
      title: "图书馆与学费",
      status: "indexed",
    })
    .returning();
  // As the earlier code stored them: Postgres' own configuration keeps each run of Han letters whole, as it did.
  const texts = ["本校的学费为每学期一万二千元。", "ห้องสมุดเปิดทุกวัน", "Tuition is billed each semester."];
  for (const [position, text] of texts.entries()) {
    await db.execute(sql`insert into chunks (app_id, url_id, position, heading_path, text, tsv)
      values (${app.id}, ${page.id}, ${position}, '["学费"]'::jsonb, ${text}, to_tsvector('english', ${text}))`);
  }
  const stored = async () =>
    rowsOf<{ position: number; tsv: string; stale: boolean }>(
      await db.execute(sql`
    select position, tsv::text as tsv, lexemes_stale as stale from chunks where url_id = ${page.id} order by position`),
    );
  const before = await stored();
  expect(before[0].tsv).not.toContain("'学费'");

  await db.execute(sql.raw(markingStatement("0025_unspaced_words")));
  expect((await stored()).map((row) => row.stale)).toEqual([true, true, false]);

  expect(await relexemeStalePassages(db)).toBe(2);
  const after = await stored();
  expect(after.map((row) => row.stale)).toEqual([false, false, false]);
  expect(after[0].tsv).toContain("'学费':");
  // The title's and headings' words stand after the text's, at positions of the field weight, as chunkBlocks writes them.
  expect(after[0].tsv).toMatch(/'图书':\d+B/u);
  // A passage in a spaced script is left as it was.
  expect(after[2].tsv).toBe(before[2].tsv);
  // Found by the word in its text first; the Thai passage holds it only in its heading.
  const hits = await searchChunks({ appId: app.id, query: "学费是多少？", limit: 5 }, { db });
  expect(hits.map((hit) => hit.text)).toEqual([texts[0], texts[1]]);
  // Nothing is left to do.
  expect(await relexemeStalePassages(db)).toBe(0);
});

it("makes again the lexemes of passages in Russian, Arabic or Korean, indexed with their words as written", async () => {
  const { db } = handle;
  const [app] = await db
    .insert(clientApps)
    .values({ clientName: "Relexeme inflected", urlCode: "relexeme-inflected" })
    .returning();
  const [website] = await db
    .insert(websites)
    .values({ appId: app.id, url: "https://example.ru", siteMap: "few_urls" })
    .returning();
  const [page] = await db
    .insert(urls)
    .values({
      appId: app.id,
      websiteId: website.id,
      url: "https://example.ru/fees",
      title: "Стоимость",
      status: "indexed",
    })
    .returning();
  // As the earlier code stored them: words in these scripts as written, Arabic's article on its nouns.
  const texts = [
    "Стоимость обучения составляет 240 000 рублей в год.",
    "تبلغ الرسوم الدراسية 12000 دولار.",
    "등록금은 한 학기에 450만 원입니다.",
    "Tuition is billed each semester.",
  ];
  for (const [position, text] of texts.entries()) {
    await db.execute(sql`insert into chunks (app_id, url_id, position, heading_path, text, tsv)
      values (${app.id}, ${page.id}, ${position}, '[]'::jsonb, ${text}, to_tsvector('simple', ${text}))`);
  }
  const stale = async () =>
    rowsOf<{ stale: boolean }>(
      await db.execute(sql`
    select lexemes_stale as stale from chunks where url_id = ${page.id} order by position`),
    ).map((row) => row.stale);
  expect(await searchChunks({ appId: app.id, query: "Сколько стоит обучение?", limit: 5 }, { db })).toEqual([]);

  await db.execute(sql.raw(markingStatement("0026_inflected_scripts")));
  expect(await stale()).toEqual([true, true, true, false]);
  expect(await relexemeStalePassages(db)).toBe(3);
  expect(await stale()).toEqual([false, false, false, false]);
  // "обучение" now meets the passage's "обучения", "رسوم" its "الرسوم", and "등록금이" its "등록금은".
  expect(
    (await searchChunks({ appId: app.id, query: "Сколько стоит обучение?", limit: 5 }, { db })).map((hit) => hit.text),
  ).toEqual([texts[0]]);
  expect(
    (await searchChunks({ appId: app.id, query: "كم رسوم الدراسة؟", limit: 5 }, { db })).map((hit) => hit.text),
  ).toEqual([texts[1]]);
  expect(
    (await searchChunks({ appId: app.id, query: "등록금이 얼마예요?", limit: 5 }, { db })).map((hit) => hit.text),
  ).toEqual([texts[2]]);
});
