/**
 * Questions about pages in scripts written without spaces between words (Chinese, Japanese,
 * Thai), on real pages nobody here wrote: the shared fixtures' pages holding such text (Readability's
 * test pages and trafilatura's evaluation pages among them) are indexed by the real pipeline beside
 * every other page bench/answers.ts indexes, and questions are made from their own sentences by
 * rule, never written by hand. Each question is answered by the responder as the chat route calls
 * it; the figures are the share answered (not the fallback) and the share whose first source is the
 * page the sentence came from (docs/decisions/026).
 *
 * Two kinds of question per sampled sentence (at most 40 a page, spread over the page):
 * - keywords: the sentence's three longest words (as ICU's word breaker cuts them, kana-only words
 *   left out), in reverse order: a visitor's words, not the page's phrase;
 * - clause: the first 60 % of the sentence's characters.
 *
 *   npx tsx bench/answers-unspaced.ts     FIXTURES_DIR=../shared/fixtures by default
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { respond } from "../api/chat/responder";
import { rowsOf } from "../api/db/rows";
import { decodeHtml } from "../api/knowledge/extract/decode-html";
import { benchPages, indexPages, servePages, share, startBenchApi } from "./answer-pages";

const FIXTURES = path.resolve(process.env.FIXTURES_DIR ?? "../shared/fixtures");
const DEV = path.join(FIXTURES, "extraction-dev");
/** Letters of the scripts written without spaces (Han, kana, Thai, Lao, Khmer, Burmese). */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu;
/** A page counts when its stored text holds this many such letters; a sentence when it holds this many. */
const PAGE_LETTERS = 200;
const SENTENCE_LETTERS = 15;
const PER_PAGE = 40;

if (!existsSync(path.join(FIXTURES, "real-pages"))) {
  console.log(`answers-unspaced: skipped, no shared fixtures at ${FIXTURES} (set FIXTURES_DIR)`);
  process.exit(0);
}

const letters = (text: string) => text.match(UNSPACED)?.length ?? 0;
const pages = benchPages(FIXTURES);
// trafilatura's evaluation pages in these scripts, served with their real charset.
if (existsSync(path.join(DEV, "charsets.json"))) {
  const charsets = JSON.parse(readFileSync(path.join(DEV, "charsets.json"), "utf8")) as Record<string, string>;
  for (const file of readdirSync(path.join(DEV, "html"))) {
    const full = path.join(DEV, "html", file);
    if (letters(decodeHtml(readFileSync(full), charsets[file] ?? null)) >= PAGE_LETTERS * 5) {
      pages.set(`extraction-dev/${file}`, { file: full, type: `text/html; charset=${charsets[file] ?? "utf-8"}` });
    }
  }
}

const wordBreaker = new Intl.Segmenter(undefined, { granularity: "word" });
/** The sentence's three longest words of these scripts, in reverse order of length. */
function keywordsOf(sentence: string) {
  const words = [
    ...new Set(
      Array.from(wordBreaker.segment(sentence))
        .filter((piece) => piece.isWordLike)
        .map((piece) => piece.segment),
    ),
  ].filter((word) => [...word].length >= 2 && letters(word) && !/^\p{Script=Hiragana}+$/u.test(word));
  return words
    .sort((a, b) => [...b].length - [...a].length || (a < b ? -1 : 1))
    .slice(0, 3)
    .reverse()
    .join("");
}
const clauseOf = (sentence: string) => [...sentence].slice(0, Math.ceil([...sentence].length * 0.6)).join("");

const site = await servePages(pages);
const bench = await startBenchApi("answers-unspaced");
try {
  const { host } = bench;
  const index = await indexPages(host, site.base, [...pages.keys()].map(site.pageUrl), "Unspaced answer bench");
  console.log(
    `indexed ${index.pageCount - index.failed.length} of ${index.pageCount} pages through the pipeline in ${index.seconds.toFixed(1)} s; ${index.chunkCount} chunks`,
  );
  const stored = rowsOf<{ url: string; text: string }>(
    await host.deps.db.execute(sql`
    select u.url, c.text from chunks c join urls u on u.id = c.url_id where c.app_id = ${index.appId} order by u.url, c.position`),
  );
  const sentencesByPage = new Map<string, string[]>();
  for (const { url, text } of stored) {
    const sentences = sentencesByPage.get(url) ?? [];
    for (const sentence of text.split(/(?<=[。！？])|\n/u))
      if (letters(sentence) >= SENTENCE_LETTERS) sentences.push(sentence.trim());
    sentencesByPage.set(url, sentences);
  }
  const tally = { keywords: { asked: 0, answered: 0, right: 0 }, clause: { asked: 0, answered: 0, right: 0 } };
  for (const [url, sentences] of sentencesByPage) {
    if (sentences.reduce((sum, sentence) => sum + letters(sentence), 0) < PAGE_LETTERS) continue;
    const step = Math.max(1, Math.floor(sentences.length / PER_PAGE));
    const page = { keywords: { asked: 0, answered: 0, right: 0 }, clause: { asked: 0, answered: 0, right: 0 } };
    for (let at = 0; at < sentences.length; at += step) {
      for (const [kind, question] of [
        ["keywords", keywordsOf(sentences[at])],
        ["clause", clauseOf(sentences[at])],
      ] as const) {
        if (!question) continue;
        const answer = await respond(
          { appId: index.appId, environment: "stage", triggerPoint: "", message: question },
          host.deps,
        );
        for (const t of [page[kind], tally[kind]]) {
          t.asked++;
          if (answer.outcome !== "fallback") t.answered++;
          if (answer.sources[0]?.url === url) t.right++;
        }
      }
    }
    console.log(
      `  ${url.replace(site.base, "")}: keywords ${page.keywords.right}/${page.keywords.asked} first source right, clause ${page.clause.right}/${page.clause.asked}`,
    );
  }
  for (const [kind, t] of Object.entries(tally)) {
    console.log(
      `${kind.padEnd(8)} questions ${t.asked}: answered ${share(t.answered, t.asked)}  first source right ${share(t.right, t.asked)}`,
    );
  }
} finally {
  await bench.close();
  site.close();
}
