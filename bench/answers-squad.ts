/**
 * Answer quality on a public development set, the way the widget is used: the ten SQuAD 2.0
 * articles of the shared fixtures (qa-dev/) are served as web pages beside the pages
 * bench/answers.ts indexes (so other pages compete), everything is indexed by the real pipeline
 * jobs, and every question is asked through POST /v1/chat with an embed key.
 *
 * The articles at even positions of the file are the tuning half A, those at odd positions the
 * confirming half B; every figure is printed for A, for B and for both. Misses are shown for A only,
 * so that B stays a check on what was tuned by looking at A.
 *
 * Figures (texts compared after SQuAD's normalisation: lower case, no punctuation, no articles,
 * single spaces; a gold answer counts when it appears as whole words):
 * - answerable questions: the answer contains a gold answer; the median length of the answers that
 *   were not the fallback, in words; the first cited source is the question's article; the
 *   fallback was given; "passage handed to a model": a gold answer is in one of the passages the
 *   responder hands a model (respond(), called as the chat route calls it: the quoted passage, then
 *   retrieval's passages within the model's budget); "in retrieval's 20": a gold answer is in one of
 *   the passages retrieval returns for the question (retrieve, called as the responder calls it),
 *   and how often the first of them holds it, or one of the first three;
 * - unanswerable questions: the fallback was given (abstained);
 * - follow-ups: each answerable question that points back ("When did these rebellions take
 *   place?") asked again in a conversation, right after the question written before it on its
 *   paragraph, against the same question asked alone;
 * - chat latency over all questions, asked 4 at a time;
 * - per article: contains, median words and first source (with the floor's), to show how much the
 *   figures move from one article to another, as they will on a held-out set of other articles;
 * - a floor on the same answerable questions: Okapi BM25 over the paragraphs of the ten articles,
 *   answered with the sentence of the top paragraph sharing the most question words, and whether
 *   its top 3 paragraphs hold a gold answer; it says what
 *   the pipeline's extraction, ranking and answer add over a plain paragraph search.
 *
 *   npx tsx bench/answers-squad.ts
 *   FIXTURES_DIR=../shared/fixtures    where the shared fixtures are (the default; skipped when absent)
 *   BENCH_LIMIT=n                      ask only the first n questions of each article (quick runs)
 *   BENCH_VERBOSE=1                    print half A's misses: question, gold, answer, first source
 *   BENCH_SITE_PORT, BENCH_API_PORT    ports of the page server and the API (any free port by default)
 */
import { performance } from "node:perf_hooks";
import { QUALITY_CHECK_DEFAULTS } from "@contract";
import { pointsBack } from "../api/chat/follow-up";
import { respond } from "../api/chat/responder";
import { retrieve, type FirstStage } from "../api/knowledge/index/search";
import {
  askChat,
  benchPages,
  indexPages,
  inPool,
  median,
  servePages,
  share,
  startBenchApi,
  wordCount,
  type Asked,
} from "./answer-pages";
import {
  FLOOR_DESCRIPTION,
  holdsGold,
  RESPONDER_LIMIT,
  squadSetOrExit,
  VISITORS_AT_ONCE as CONCURRENCY,
  type SquadQuestion,
} from "./squad-set";
import { firstStageSummary, percentiles } from "./support";

const { fixtures: FIXTURES, limit: LIMIT, squad } = squadSetOrExit("answers-squad");
const VERBOSE = process.env.BENCH_VERBOSE === "1";
const { articles, titleOf, articlePage } = squad;
const floorAnswer = squad.floor;
/** A fixed rule naming no article: even positions tune (half A), odd ones confirm (B). */
const halfOf = (article: number) => (article % 2 === 0 ? ("A" as const) : ("B" as const));
type Question = SquadQuestion & { half: "A" | "B" };
const questions: Question[] = squad.questions.map((q) => ({ ...q, half: halfOf(q.article) }));

const pages = benchPages(FIXTURES);
articles.forEach((_, index) => pages.set(articlePage(index), squad.articleHtml(index)));

// ---- The run.

const site = await servePages(pages);
const bench = await startBenchApi("answers-squad");
const { host, apiBase } = bench;

interface Result {
  item: Question;
  answer: Asked;
  holds: boolean;
  rightSource: boolean;
  inContext: boolean;
  handed: boolean;
  topRight: boolean;
  goldRank: number;
  firstStage?: FirstStage;
  floor: { holds: boolean; words: number; rightSource: boolean; handed: boolean };
}

try {
  const started = performance.now();
  const index = await indexPages(host, site.base, [...pages.keys()].map(site.pageUrl), "SQuAD answer bench");
  console.log(
    `indexed ${index.pageCount - index.failed.length} of ${index.pageCount} pages through the pipeline in ${index.seconds.toFixed(1)} s; ${index.chunkCount} chunks`,
  );
  for (const page of index.failed)
    console.log(`  not indexed: ${page.url.replace(site.base, "")} (${page.metadata.error_message ?? page.status})`);
  const unreadable = [...pages.keys()].filter((page) => !index.readable.has(site.pageUrl(page)));
  if (unreadable.length) console.log(`  indexed without text: ${unreadable.join(", ")}`);

  for (const item of questions.slice(0, 5)) await askChat(apiBase, index.key, item.question); // warm-up

  let done = 0;
  const results = await inPool(questions, CONCURRENCY, async (item): Promise<Result> => {
    const answer = await askChat(apiBase, index.key, item.question);
    const articleUrl = site.pageUrl(articlePage(item.article));
    let inContext = false;
    let handed = false;
    let topRight = false;
    let goldRank = -1;
    let firstStage: FirstStage | undefined;
    if (item.answerable) {
      // As api/chat/responder.ts calls it: the widget sends no trigger point, so the default one.
      const retrieved = await retrieve(
        { appId: index.appId, query: item.question, triggerPoint: "", limit: RESPONDER_LIMIT },
        host.deps,
      );
      const { hits } = retrieved;
      firstStage = retrieved.firstStage;
      goldRank = hits.findIndex((hit) => holdsGold(hit.text, item.golds));
      inContext = goldRank !== -1;
      topRight = hits[0]?.url === articleUrl;
      // What a model reads: the responder's own context for the question.
      const responded = await respond(
        { appId: index.appId, environment: "stage", triggerPoint: "", message: item.question },
        host.deps,
      );
      handed = responded.context.some((passage) => holdsGold(passage.text, item.golds));
    }
    const floor = floorAnswer(item.question);
    if (++done % 500 === 0) console.error(`  ${done} of ${questions.length} asked`);
    return {
      item,
      answer,
      holds: holdsGold(answer.text, item.golds),
      rightSource: answer.sources[0]?.url === articleUrl,
      inContext,
      handed,
      topRight,
      goldRank,
      firstStage,
      floor: {
        holds: holdsGold(floor.text, item.golds),
        words: wordCount(floor.text),
        rightSource: floor.article === item.article,
        handed: floor.top.some((text) => holdsGold(text, item.golds)),
      },
    };
  });
  // Follow-ups ("When did these rebellions take place?"): each answerable question that points back
  // is asked again in a conversation, right after the question written before it on its paragraph.
  const followUps = questions.filter((q) => q.answerable && q.previous && pointsBack(q.question));
  const inConversation = new Map(
    await inPool(followUps, CONCURRENCY, async (item) => {
      const before = await askChat(apiBase, index.key, item.previous!);
      return [item, await askChat(apiBase, index.key, item.question, before.conversationId)] as const;
    }),
  );
  const errors = results.filter((r) => r.answer.outcome === "error").length;

  console.log(
    `\nSQuAD 2.0 development set, ${articles.length} articles (A: even positions, B: odd), ${questions.length} questions${LIMIT < Infinity ? ` (first ${LIMIT} of each article)` : ""}, asked ${CONCURRENCY} at a time over ${index.chunkCount} chunks (extractive, embedded PGlite)`,
  );
  if (errors) console.log(`  ${errors} questions got an error instead of an answer`);
  const halves: [string, Result[]][] = [
    ["A", results.filter((r) => r.item.half === "A")],
    ["B", results.filter((r) => r.item.half === "B")],
    ["all", results],
  ];
  for (const [name, rs] of halves) {
    const answerable = rs.filter((r) => r.item.answerable);
    const unanswerable = rs.filter((r) => !r.item.answerable);
    const count = (list: Result[], test: (r: Result) => boolean) => list.filter(test).length;
    const words = answerable.filter((r) => r.answer.outcome !== "fallback").map((r) => wordCount(r.answer.text));
    const { p50, p95 } = percentiles(rs.map((r) => r.answer.ms));
    console.log(
      `half ${name.padEnd(3)} answerable ${answerable.length}: contains ${share(
        count(answerable, (r) => r.holds),
        answerable.length,
      )}  median ${median(words)} words  ` +
        `first source ${share(
          count(answerable, (r) => r.rightSource),
          answerable.length,
        )}  top passage ${share(
          count(answerable, (r) => r.topRight),
          answerable.length,
        )}  ` +
        `passage handed to a model ${share(
          count(answerable, (r) => r.handed),
          answerable.length,
        )}  in retrieval's ${RESPONDER_LIMIT} ${share(
          count(answerable, (r) => r.inContext),
          answerable.length,
        )} ` +
        `(first ${share(
          count(answerable, (r) => r.goldRank === 0),
          answerable.length,
        )}, top 3 ${share(
          count(answerable, (r) => r.goldRank >= 0 && r.goldRank < 3),
          answerable.length,
        )})  ` +
        `fallback ${share(
          count(answerable, (r) => r.answer.outcome === "fallback"),
          answerable.length,
        )} | unanswerable ${unanswerable.length}: ` +
        `abstained ${share(
          count(unanswerable, (r) => r.answer.outcome === "fallback"),
          unanswerable.length,
        )} | p50 ${p50} ms p95 ${p95} ms`,
    );
  }
  console.log(firstStageSummary(results.map((r) => r.firstStage)));
  for (const [name, rs] of halves) {
    const asked = rs.filter((r) => inConversation.has(r.item));
    const followed = asked.map((r) => inConversation.get(r.item)!);
    const articleOf = (r: Result) => site.pageUrl(articlePage(r.item.article));
    console.log(
      `follow-ups ${name.padEnd(3)} ${asked.length} pointing back: contains ${share(asked.filter((r) => r.holds).length, asked.length)} asked alone, ` +
        `${share(asked.filter((r, i) => holdsGold(followed[i].text, r.item.golds)).length, asked.length)} after their previous question; ` +
        `first source ${share(asked.filter((r) => r.rightSource).length, asked.length)} → ${share(asked.filter((r, i) => followed[i].sources[0]?.url === articleOf(r)).length, asked.length)}`,
    );
  }
  for (const [name, rs] of halves) {
    const answerable = rs.filter((r) => r.item.answerable);
    console.log(
      `floor ${name.padEnd(3)} (BM25 paragraphs, best sentence): contains ${share(answerable.filter((r) => r.floor.holds).length, answerable.length)}  ` +
        `median ${median(answerable.map((r) => r.floor.words))} words  first source ${share(answerable.filter((r) => r.floor.rightSource).length, answerable.length)}  ` +
        `answer in its top ${QUALITY_CHECK_DEFAULTS.max_sources} paragraphs ${share(answerable.filter((r) => r.floor.handed).length, answerable.length)}`,
    );
  }
  console.log(`(floor over the ${articles.length} articles: ${FLOOR_DESCRIPTION})`);
  // How far the figures move from one article to the next: what a held-out set of other articles may see.
  console.log("per article (answerable questions):");
  for (const index of articles.keys()) {
    const answerable = results.filter((r) => r.item.article === index && r.item.answerable);
    const words = answerable.filter((r) => r.answer.outcome !== "fallback").map((r) => wordCount(r.answer.text));
    console.log(
      `  ${index % 2 ? "B" : "A"} ${titleOf(index).padEnd(28)} ${String(answerable.length).padStart(4)}: contains ${share(answerable.filter((r) => r.holds).length, answerable.length)}` +
        `  median ${median(words)} words  first source ${share(answerable.filter((r) => r.rightSource).length, answerable.length)}` +
        `  floor's first source ${share(answerable.filter((r) => r.floor.rightSource).length, answerable.length)}`,
    );
  }
  console.log(`run took ${((performance.now() - started) / 1000).toFixed(0)} s`);

  if (VERBOSE) {
    // Half A only: B's misses stay unseen so that B can confirm what A tuned.
    for (const r of halves[0][1]) {
      const missed = r.item.answerable ? !r.holds || !r.rightSource : r.answer.outcome !== "fallback";
      if (!missed) continue;
      // "floor✓src": the floor's paragraph search found the article where the chat did not; "gold@2":
      // the first passage of the context holding a gold answer is the second.
      const marks = r.item.answerable
        ? `${r.holds ? "  " : "✗ "}${r.rightSource ? "    " : "✗src "}${r.inContext ? `gold@${r.goldRank + 1} ` : "✗ctx "}${!r.rightSource && r.floor.rightSource ? "floor✓src " : ""}`
        : "✗answered-unanswerable ";
      console.log(
        `\n${marks}${r.item.question}  [${r.item.answerable ? r.item.golds.join(" | ") : "no answer"}; ${titleOf(r.item.article)}]`,
      );
      console.log(`    ${r.answer.text.replace(/\s+/g, " ")}`);
      console.log(`    first source: ${r.answer.sources[0]?.url.replace(site.base, "") ?? "none"}`);
    }
  }
} finally {
  await bench.close();
  site.close();
}
