/**
 * Answer quality through the widget's own endpoint: real pages (the shared fixtures' saved web
 * pages and PDFs, and the demo university site) are served on 127.0.0.1, indexed by the real
 * pipeline jobs, and the question set of bench/answer-questions.ts is asked through POST /v1/chat.
 * Prints the share of answers holding the expected text, the median answer length in words, the
 * share whose first source is the right page, the fallback share and the chat latency.
 *   npx tsx bench/answers.ts
 *   FIXTURES_DIR=../shared/fixtures    where the shared fixtures are (the default; skipped when absent)
 *   BENCH_FILLER_CHUNKS=50000          also store this many generated passages (bench/chat.ts' kind) beside the pages
 *   BENCH_VERBOSE=1                    print every question that missed, with its answer
 *   BENCH_ONLY=regex                   ask only the questions matching it (figures then cover those only)
 *   BENCH_SITE_PORT, BENCH_API_PORT    ports of the page server and the API (any free port by default)
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { relexemeStalePassages } from "../api/knowledge/index/relexeme";
import { retrieve, type FirstStage } from "../api/knowledge/index/search";
import { QUESTIONS } from "./answer-questions";
import { askChat, benchPages, indexPages, median, servePages, share, startBenchApi, wordCount } from "./answer-pages";
import { firstStageSummary, percentiles } from "./support";

const FIXTURES = path.resolve(process.env.FIXTURES_DIR ?? "../shared/fixtures");
const FILLER_CHUNKS = Number(process.env.BENCH_FILLER_CHUNKS ?? 0);
const VERBOSE = process.env.BENCH_VERBOSE === "1";
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, "i") : null;
const ASKED = QUESTIONS.filter((item) => !ONLY || ONLY.test(item.question));

if (!existsSync(path.join(FIXTURES, "real-pages"))) {
  console.log(`answers: skipped, no shared fixtures at ${FIXTURES} (set FIXTURES_DIR)`);
  process.exit(0);
}

const pages = benchPages(FIXTURES);
const site = await servePages(pages);
const { host, apiBase, close } = await startBenchApi("answers");
const { db } = host.deps;

/** Lower case, straight quotes, one kind of dash and single spaces: how expected texts are compared. */
const normalised = (text: string) =>
  text
    .toLowerCase()
    .replace(/[‘’´`]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[‐-―−]/g, "-")
    .replace(/\s+/g, " ");

/** Generated passages about a made-up university, as bench/chat.ts stores them: distractors at scale. */
async function storeFiller(appId: number, websiteId: number, count: number) {
  const pageCount = Math.ceil(count / 10);
  await db.execute(
    sql.raw(`
    insert into urls (app_id, website_id, url, title, status)
    select ${appId}, ${websiteId}, 'https://www.filler.example/page-' || i, 'Page ' || i, 'indexed' from generate_series(1, ${pageCount}) as i`),
  );
  const subjects = "nursing biology history physics finance music law design chemistry economics"
    .split(" ")
    .map((s) => `'${s}'`)
    .join(",");
  const topics = "tuition deadline scholarship housing advising internship laboratory library semester credits"
    .split(" ")
    .map((t) => `'${t}'`)
    .join(",");
  await db.execute(
    sql.raw(`
    insert into chunks (app_id, url_id, position, heading_path, text)
    select u.app_id, u.id, p, '[]'::jsonb,
      'The ' || (array[${subjects}])[1 + (u.id + p) % 10] || ' program covers ' || (array[${topics}])[1 + (u.id * 3 + p) % 10] || ' and ' ||
      (array[${topics}])[1 + (u.id * 7 + p) % 10] || ' for students in year ' || (1 + p % 4) ||
      '. Details change every semester; contact the office of ' || (array[${subjects}])[1 + u.id % 10] || ' for more.'
    from urls u, generate_series(0, 9) as p where u.app_id = ${appId} and u.url like 'https://www.filler.example/%'`),
  );
}

try {
  const index = await indexPages(host, site.base, [...pages.keys()].map(site.pageUrl), "Answer bench");
  if (FILLER_CHUNKS > 0) {
    await storeFiller(index.appId, index.websiteId, FILLER_CHUNKS);
    // The filler's lexemes made by our code, as the scheduled recovery would (migration 0055).
    await relexemeStalePassages(db, Number.POSITIVE_INFINITY);
    await db.execute(sql`analyze chunks`);
  }
  const chunkCount = index.chunkCount + FILLER_CHUNKS;
  console.log(
    `indexed ${index.pageCount - index.failed.length} of ${index.pageCount} pages through the pipeline in ${index.seconds.toFixed(1)} s; ${chunkCount} chunks${FILLER_CHUNKS ? ` (${FILLER_CHUNKS} generated)` : ""}`,
  );
  for (const page of index.failed)
    console.log(`  not indexed: ${page.url.replace(site.base, "")} (${page.metadata.error_message ?? page.status})`);
  // Pages indexed without any text (the extraction found no main content) cannot be answered from;
  // the figures are also printed without their questions, to tell retrieval from extraction.
  const readable = index.readable;
  const unreadable = [...pages.keys()].filter((page) => !readable.has(site.pageUrl(page)));
  if (unreadable.length) console.log(`  indexed without text: ${unreadable.join(", ")}`);

  const ask = (message: string) => askChat(apiBase, index.key, message);
  for (const { question } of ASKED.slice(0, 5)) await ask(question); // warm-up

  let contained = 0;
  let firstRight = 0;
  let fallbacks = 0;
  const onReadable = { asked: 0, contained: 0, firstRight: 0 };
  const words: number[] = [];
  const timings: number[] = [];
  const firstStages: (FirstStage | undefined)[] = [];
  for (const item of ASKED) {
    const answer = await ask(item.question);
    firstStages.push((await retrieve({ appId: index.appId, query: item.question, limit: 20 }, host.deps)).firstStage);
    timings.push(answer.ms);
    const holds = item.answers.some((expected) => normalised(answer.text).includes(normalised(expected)));
    const rightSource = answer.sources[0]?.url.replace(/\/$/, "") === site.pageUrl(item.page).replace(/\/$/, "");
    if (holds) contained++;
    if (rightSource) firstRight++;
    if (answer.outcome === "fallback") fallbacks++;
    if (readable.has(site.pageUrl(item.page))) {
      onReadable.asked++;
      if (holds) onReadable.contained++;
      if (rightSource) onReadable.firstRight++;
    }
    if (answer.outcome !== "fallback") words.push(wordCount(answer.text));
    if (process.env.BENCH_DEBUG === "1") {
      const { hits } = await retrieve({ appId: index.appId, query: item.question, limit: 8 }, host.deps);
      for (const hit of hits)
        console.log(
          `      ${hit.baseScore.toFixed(2)} ${hit.bm25.toFixed(2)} ${hit.url?.replace(site.base, "")} ${hit.text.slice(0, 100)}`,
        );
    }
    if (VERBOSE && (!holds || !rightSource)) {
      console.log(
        `\n${holds ? "  " : "✗ "}${rightSource ? "  " : "✗src "}${item.question}  [${item.answers[0]}; ${item.page}]`,
      );
      console.log(`    ${answer.text.replace(/\s+/g, " ")}`);
      console.log(`    first source: ${answer.sources[0]?.url.replace(site.base, "") ?? "none"}`);
    }
  }
  const { p50, p95 } = percentiles(timings);
  const total = ASKED.length;
  console.log(`answers to ${total} questions over ${chunkCount} chunks (extractive, embedded PGlite):`);
  console.log(`  containing the expected answer   ${share(contained, total)}   (target ≥ 90%)`);
  console.log(`  median answer length             ${median(words)} words   (answered questions; target ≤ 35)`);
  console.log(`  first source is the right page   ${share(firstRight, total)}   (target ≥ 97%)`);
  console.log(`  fallback message                 ${share(fallbacks, total)}`);
  console.log(`  chat p50 ${p50} ms  p95 ${p95} ms`);
  console.log(`  ${firstStageSummary(firstStages)}`);
  if (onReadable.asked < total) {
    console.log(
      `  on the ${onReadable.asked} questions whose page has text: containing ${share(onReadable.contained, onReadable.asked)}, first source right ${share(onReadable.firstRight, onReadable.asked)}`,
    );
  }
} finally {
  await close();
  site.close();
}
