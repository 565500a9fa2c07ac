import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { PGlite as PGlite18 } from "pglite-postgres-18";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../db/client";
import { chunks, clientApps, knowledgeFiles } from "../../db/schema";
import { chunkBlocks } from "../index/chunk";
import { relexemeStalePassages } from "../index/relexeme";
import { extractHtml } from "../extract/extract-html";
import { everyLexemeQuery, lexemesOf, tsvectorOf, verbOfIrregularForm, wordsOf } from "./lexemes";
import { sharedFixture } from "../../../tests/support/shared-fixtures";

/** A text's key words as retrieval reads them: its words, stop words left out, stemmed. */
const keyWords = (text: string) => lexemesOf(wordsOf(text));

let handle: DatabaseHandle;
/**
 * PostgreSQL 18, whose English stemmer is the Snowball our lexemes follow (19's is a newer one that
 * stems 0.3 % of words otherwise): the embedded database of the release before, kept to upgrade its
 * data folders (api/db/pglite-upgrade.ts).
 */
let postgres18: PGlite18;
beforeAll(async () => {
  [handle, postgres18] = await Promise.all([openDatabase({}), PGlite18.create()]);
});
afterAll(() => Promise.all([handle?.close(), postgres18?.close()]));

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
/** The tsvector the database the console runs on makes of a text. */
const postgresTsvector = async (text: string) =>
  rows<{ tsv: string }>(await handle.db.execute(sql`select to_tsvector('english', ${text})::text as tsv`))[0].tsv;
const postgres18Tsvector = async (text: string) =>
  (await postgres18.query<{ tsv: string }>("select to_tsvector('english', $1)::text as tsv", [text])).rows[0].tsv;
const normalised = async (literal: string) =>
  rows<{ tsv: string }>(await handle.db.execute(sql`select ${literal}::tsvector::text as tsv`))[0].tsv;

/** Text of real pages nobody here wrote (the shared development set's expected article bodies). */
function realText(pages: number) {
  const dir = sharedFixture("real-pages-dev");
  let names: string[] = [];
  try {
    names = readdirSync(dir).slice(0, pages);
  } catch {
    return "";
  }
  return names
    .map((name) => {
      try {
        return extractHtml(readFileSync(path.join(dir, name, "expected.html"), "utf8")).text;
      } catch {
        return "";
      }
    })
    .join("\n");
}

describe("lexemes made in our code", () => {
  // Postgres releases ship different Snowball versions (17 stems "added" as "add", 15 as "ad"; 19
  // "international" as "internat"): the lexemes follow 18's, with all but a handful of its words, and
  // always agree with each other. Irregular verbs' past forms are ours alone ("grew" is "grow"), so
  // they are left out here.
  it("are the stems and stop words PostgreSQL 18's english configuration makes, on real text", async () => {
    const words = [
      ...new Set(wordsOf(realText(60) || "The students were running between universities, studying generously.")),
    ].filter((word) => /^[a-z]+$/.test(word) && !verbOfIrregularForm(word));
    expect(words.length).toBeGreaterThan(5);
    const theirs = (
      await postgres18.query<{ word: string; lexeme: string }>(
        `select word, coalesce(array_to_string(tsvector_to_array(to_tsvector('english', word)), ' '), '') as lexeme
         from unnest($1::text[]) as word`,
        [words],
      )
    ).rows;
    const differ = theirs.filter(({ word, lexeme }) => (lexemesOf([word])[0] ?? "") !== lexeme);
    expect(differ.length / theirs.length).toBeLessThan(0.002);
  });

  it("make the same tsvector as PostgreSQL 18's to_tsvector for prose, positions and stop words included", async () => {
    const prose =
      "The Admissions Office opens at 9 am; international students' tuition is $14,200 per semester, and it's billed twice. Running, runs.";
    expect(await normalised(tsvectorOf(prose))).toBe(await postgres18Tsvector(prose));
  });

  it("count an irregular verb's past forms as the verb, so questions meet pages across tenses", () => {
    expect(lexemesOf(wordsOf("Who wrote the specification?"))).toEqual(
      lexemesOf(wordsOf("the specification was written by")),
    );
    expect(lexemesOf(["grew"])).toEqual(lexemesOf(["grow"]));
    expect(lexemesOf(["born"])).toEqual(lexemesOf(["bear"]));
    // A form of a stop word is a stop word too.
    expect(lexemesOf(["been", "were", "did"])).toEqual([]);
  });

  it("keep non-Latin text, numbers and words with digits, and leave out runs too long to be words", async () => {
    const vector = await normalised(tsvectorOf("مرحبا بالطلاب 東京大学 Ελληνικά mp3 2024 " + "x".repeat(150)));
    // Arabic words are stemmed ("بالطلاب", with the students: "طلاب"), other scripts kept as written.
    for (const kept of ["'مرحب'", "'طلاب'", "'東京'", "'大学'", "'2024'", "'mp3'", "'ελληνικά'"])
      expect(vector).toContain(kept);
    expect(vector).not.toContain("xxx");
    expect(tsvectorOf("the and of")).toBe("");
  });

  it("are stored as given, and a row inserted without them gets Postgres' own until ours are made again", async () => {
    const { db } = handle;
    const [app] = await db.insert(clientApps).values({ clientName: "Lexemes", urlCode: "lexemes" }).returning();
    const [file] = await db
      .insert(knowledgeFiles)
      .values({ appId: app.id, fileName: "guide.pdf", uploadKey: "k", status: "indexed" })
      .returning();
    const [chunk] = chunkBlocks([{ kind: "text", text: "Parking permits are sold at the campus desk." }]);
    await db.insert(chunks).values([
      { appId: app.id, fileId: file.id, position: 0, text: chunk.text, tsv: chunk.tsv },
      { appId: app.id, fileId: file.id, position: 1, text: "Library cards for international students are free." },
    ]);
    const stored = async () =>
      rows<{ tsv: string; lexemes_stale: boolean }>(
        await db.execute(
          sql`select tsv::text as tsv, lexemes_stale from chunks where file_id = ${file.id} order by position`,
        ),
      );
    const [given, fallback] = await stored();
    expect(given).toEqual({ tsv: await normalised(chunk.tsv), lexemes_stale: false });
    expect(fallback).toEqual({
      tsv: await postgresTsvector("Library cards for international students are free."),
      lexemes_stale: true,
    });
    const found = rows<{ position: number }>(
      await db.execute(sql`
      select position from chunks where file_id = ${file.id} and tsv @@ ${everyLexemeQuery(lexemesOf(wordsOf("parking permit")))}::tsquery`),
    );
    expect(found.map((r) => r.position)).toEqual([0]);
    // The scheduled recovery makes them again with our stemmer, which questions are stemmed by.
    expect(await relexemeStalePassages(db)).toBe(1);
    expect((await stored())[1]).toEqual({
      tsv: await normalised(tsvectorOf("Library cards for international students are free.")),
      lexemes_stale: false,
    });
  });

  it("write each lexeme once per tsvector, with the positions of every word that stems to it, and no more than Postgres keeps", () => {
    expect(tsvectorOf("Running runs; the runner ran. Running!")).toBe("'run':1,2,5,6 'runner':4");
    // The next text starts afresh: nothing of the last one's positions carries over.
    expect(tsvectorOf("The runner runs.")).toBe("'runner':2 'run':3");
    expect(tsvectorOf("7 ".repeat(300))).toBe(`'7':${Array.from({ length: 256 }, (_, i) => i + 1).join(",")}`);
  });

  it("quote what a tsvector literal cannot hold as written", () => {
    expect(everyLexemeQuery(["o'neil", "back\\slash"])).toBe("'o''neil' & 'back\\\\slash'");
  });
});

describe("words without Latin accents, and fields beside the text", () => {
  it("takes the accents off Latin letters only", () => {
    expect(wordsOf("Fiancée in Zürich, São Paulo; naïve façade")).toEqual([
      "fiancee",
      "in",
      "zurich",
      "sao",
      "paulo",
      "naive",
      "facade",
    ]);
    expect(lexemesOf(wordsOf("fiancée"))).toEqual(lexemesOf(wordsOf("fiancee")));
    // Marks that are part of another script's letters stay.
    expect(wordsOf("हिन्दी")).toEqual(["हिन्दी"]);
  });

  it("writes a passage's title and headings after its text, at positions of their own weight", () => {
    expect(tsvectorOf("Tuition is due in March.", ["Tuition and fees", "Payment dates"])).toBe(
      "'tuition':1,6B 'due':3 'march':5 'fee':8B 'payment':9B 'date':10B",
    );
    expect(tsvectorOf("Tuition is due.")).toBe("'tuition':1 'due':3");
  });
});

describe("words of scripts written without spaces", () => {
  it("cuts Chinese, Japanese and Thai into words, and leaves every other text as it was", () => {
    expect(wordsOf("本校的学费为每学期一万二千元。")).toContain("学费");
    expect(wordsOf("授業料は1学期あたり62万円です。")).toEqual(expect.arrayContaining(["授業", "学期", "62"]));
    expect(wordsOf("ห้องสมุดเปิดทุกวัน")).toEqual(expect.arrayContaining(["ห้อง", "สมุด", "ทุก", "วัน"]));
    // A mixed run: the Latin word stands apart from the kanji next to it.
    expect(wordsOf("iPhone15の価格")).toEqual(["iphone15", "の", "価格"]);
    // Spaced scripts are cut as before: Korean between spaces, numbers as the text writes them.
    expect(wordsOf("한국어 문장입니다 and 45,000 words")).toEqual([
      "한국어",
      "문장입니다",
      "and",
      "45",
      "000",
      "words",
    ]);
    // A Korean number stands apart from its counter and particle.
    expect(wordsOf("9월 10일에 450만 원")).toEqual(["9", "월", "10", "일에", "450", "만", "원"]);
  });

  it("give a question and the sentence that answers it the same key words", () => {
    // The question word ("多少", "how much") and the function words are stop words, as "what" is.
    expect(keyWords("学费是多少？")).toEqual(["学费"]);
    expect(keyWords("本校的学费为每学期一万二千元。")).toEqual(expect.arrayContaining(["学费"]));
    // Hiragana alone is Japanese grammar, whichever way ICU cuts it ("あり|ます", "ありま|すか").
    expect(keyWords("学生寮はどこにありますか？")).toEqual(keyWords("学生寮"));
    expect(keyWords("学生寮は大学の北側にあります。")).toEqual(expect.arrayContaining(keyWords("学生寮")));
    expect(keyWords("ค่าเล่าเรียนเท่าไหร่")).toEqual(keyWords("ค่าเล่าเรียน"));
  });
});

describe("words in Cyrillic and Arabic letters", () => {
  it("stem a Russian word's cases and numbers to one lexeme, and read 'е' for 'ё'", () => {
    expect(keyWords("обучение")).toEqual(keyWords("обучения"));
    expect(keyWords("стоимости")).toEqual(keyWords("Стоимость"));
    expect(keyWords("общежитие")).toEqual(keyWords("Общежития"));
    expect(keyWords("прием")).toEqual(keyWords("Приём"));
    // Function and question words are stop words, as "how much" and "where" are in English.
    expect(keyWords("Сколько стоит обучение? Где находится общежитие?")).toEqual(
      keyWords("стоит обучение находится общежитие"),
    );
    expect(keyWords("и в на где")).toEqual([]);
  });

  it("take Arabic's article and vowel signs off its words", () => {
    expect(keyWords("الرسوم")).toEqual(keyWords("رسوم"));
    expect(keyWords("المكتبة")).toEqual(keyWords("مكتبة"));
    expect(keyWords("الطُّلَّاب")).toEqual(keyWords("الطلاب"));
    expect(keyWords("كم متى أين في")).toEqual([]);
  });

  it("leave words in other scripts to the English stemmer, and numbers as written", () => {
    expect(keyWords("universities")).toEqual(["univers"]);
    expect(keyWords("2024 год")).toEqual(["2024", "год"]);
  });
});

describe("words in Hangul", () => {
  it("give a noun its stem whatever particle it carries, and a verb whatever ending", () => {
    expect(keyWords("등록금이")).toEqual(keyWords("등록금은"));
    expect(keyWords("기숙사가")).toEqual(keyWords("기숙사는"));
    expect(keyWords("책은")).toEqual(keyWords("책을"));
    expect(keyWords("마감일이")).toEqual(keyWords("마감됩니다"));
    expect(keyWords("열어요")).toEqual(keyWords("열고"));
    expect(keyWords("운영합니다")).toEqual(keyWords("운영"));
  });

  it("leave out question words and the verbs of being and doing, as English does", () => {
    expect(keyWords("등록금이 얼마예요?")).toEqual(keyWords("등록금"));
    expect(keyWords("기숙사가 어디에 있어요?")).toEqual(keyWords("기숙사"));
    expect(keyWords("몇 시에 열어요?")).toEqual(keyWords("시에 열어요"));
    expect(keyWords("언제 어떻게 누가 왜")).toEqual([]);
  });
});
