/**
 * Answers judged across articles: the ten SQuAD 2.0 articles of the shared fixtures (qa-dev/) in
 * five folds of two (fold k holds the articles at positions k and k + 5, a rule naming no article).
 * A change to ranking, gating or extraction stays only if it raises the median article's figures
 * and lowers no held-out article's first source by more than a point (docs/decisions/036).
 *
 * Three kinds of questions, each asked through POST /v1/chat with an embed key, after the real
 * pipeline indexed the pages (the articles beside bench/answers.ts's pages, which compete):
 * - answerable and unanswerable ones (SQuAD's labels) on a store holding all ten articles;
 * - off-topic ones: for each fold, every question of its two articles asked of a store holding the
 *   other eight, where nothing can answer them.
 *
 * Printed: for every fold, its held-out articles row by row (contains a gold answer, median words,
 * first source right, and the floor's: plain BM25 over the ten articles' paragraphs, bench/squad-set.ts;
 * and the same floor over what the store holds, the competing pages' passages beside the paragraphs;
 * answerable questions given the fallback; unanswerable and off-topic ones abstained from), then the
 * median article and the worst first source against the floor, and chat latency.
 *
 * Each question's record (its figures, the evidence the quality check reads, and the figures gates
 * were compared on beside it) goes to BENCH_OUT as JSON lines, for bench/gate-cv.ts to fit the
 * quality check's model on the tuning folds.
 *
 *   npx tsx bench/answers-cv.ts
 *   FIXTURES_DIR=../shared/fixtures   where the shared fixtures are (skipped when absent)
 *   BENCH_LIMIT=n                     only the first n questions of each article (quick runs)
 *   BENCH_OUT=file                    the per-question records (default: a file in the system's temporary folder)
 *   BENCH_SITE_PORT, BENCH_API_PORT   ports of the page server and the API (any free port by default)
 *   BENCH_COMPETING=0                 stores of the articles alone, without the competing pages
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { eq } from "drizzle-orm";
import { answerEvidence, type AnswerEvidence } from "../api/chat/answer-confidence";
import { chunks, urls } from "../api/db/schema";
import { retrieve } from "../api/knowledge/index/search";
import { lexemesOf, wordsOf } from "../api/knowledge/words/lexemes";
import { sentencesOf } from "../api/knowledge/words/sentences";
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
} from "./answer-pages";
import {
  FLOOR_DESCRIPTION,
  holdsGold,
  RESPONDER_LIMIT,
  bm25Floor,
  squadSetOrExit,
  VISITORS_AT_ONCE as CONCURRENCY,
  type SquadQuestion,
} from "./squad-set";
import { percentiles } from "./support";

const { fixtures: FIXTURES, limit: LIMIT, squad } = squadSetOrExit("answers-cv");
const OUT = process.env.BENCH_OUT ?? path.join(tmpdir(), "answers-cv.jsonl");
const FOLDS = 5;
const { articles, titleOf, articlePage } = squad;
const foldOf = (article: number) => article % FOLDS;

export type QuestionKind = "answerable" | "unanswerable" | "off-topic";

/** What one question gave, and what a gate could have read before answering. */
export interface CvRecord {
  article: number;
  fold: number;
  kind: QuestionKind;
  question: string;
  outcome: string;
  holds: boolean;
  rightSource: boolean;
  /** The answer given, and the gold answers it is checked against: what a miss is studied from. */
  answer: string;
  golds: string[];
  words: number;
  ms: number;
  floor: { holds: boolean; rightSource: boolean } | null;
  /** The same floor over the store's passages: the articles' paragraphs and the competing pages' passages. */
  storeFloor: { holds: boolean; rightSource: boolean } | null;
  /** What the quality check reads (api/chat/answer-confidence.ts). */
  evidence: AnswerEvidence;
  /** Figures beside the evidence that gates were compared on (decision 040), not read by the quality check. */
  gate: {
    /** The best passage's relevance (BM25 with its signals). */
    relevance: number;
    /** The best relevance of a passage on another page than the best passage's. */
    otherPage: number;
    /** The share of the question's own weight in words of the answer given (0 for the fallback). */
    inAnswer: number;
    /** The share of the question's own weight the answer's first sentence holds (0 for the fallback). */
    inLead: number;
    /** The share of the question's consecutive key-word pairs that stand within three words of each other in the best passage. */
    pairs: number;
    /** The question's own key words with their weight in the store, and what each passage retrieved holds of them, best first. */
    terms: { lexeme: string; idf: number }[];
    hits: { source: string; held: string[] }[];
  };
}

const pages = benchPages(FIXTURES);
const competing = process.env.BENCH_COMPETING === "0" ? [] : [...pages.keys()];
articles.forEach((_, index) => pages.set(articlePage(index), squad.articleHtml(index)));

const site = await servePages(pages);
const bench = await startBenchApi("answers-cv");
const { host, apiBase } = bench;
const started = performance.now();

/** A store (a client of its own) of the competing pages and the articles `holding`. */
async function storeOf(name: string, holding: number[]) {
  const urls = [...competing, ...holding.map(articlePage)].map(site.pageUrl);
  const store = await indexPages(host, site.base, urls, name);
  if (store.failed.length) console.log(`  ${name}: ${store.failed.length} pages not indexed`);
  return store;
}

type Store = Awaited<ReturnType<typeof storeOf>>;
type Floor = ReturnType<typeof bm25Floor>;

/**
 * The floor over what `store` holds: the articles' paragraphs as the plain floor reads them, and
 * every passage the pipeline made of the competing pages (their source is never an article), so
 * that the floor meets the same distractions as the chat.
 */
async function storeFloorOf(store: Store): Promise<Floor> {
  const articleUrls = new Set(articles.map((_, index) => site.pageUrl(articlePage(index))));
  const passages = await host.deps.db
    .select({ url: urls.url, text: chunks.text })
    .from(chunks)
    .innerJoin(urls, eq(urls.id, chunks.urlId))
    .where(eq(chunks.appId, store.appId));
  return bm25Floor([
    ...squad.paragraphs,
    ...passages
      .filter((passage) => !articleUrls.has(passage.url))
      .map((passage) => ({ article: -1, text: passage.text })),
  ]);
}

/** The share of consecutive pairs of `lexemes` that stand within three words of each other in `text`. */
function pairsNear(lexemes: string[], text: string) {
  if (lexemes.length < 2) return 0;
  const at = new Map<string, number[]>();
  lexemesOf(wordsOf(text)).forEach((lexeme, index) => at.set(lexeme, [...(at.get(lexeme) ?? []), index]));
  let near = 0;
  for (let i = 1; i < lexemes.length; i++) {
    const a = at.get(lexemes[i - 1]) ?? [];
    const b = at.get(lexemes[i]) ?? [];
    if (a.some((x) => b.some((y) => Math.abs(x - y) <= 3))) near++;
  }
  return near / (lexemes.length - 1);
}

/** Asks `item` of `store` through the chat call, and reads what the gate could have read. */
async function ask(store: Store, item: SquadQuestion, kind: QuestionKind, storeFloor: Floor): Promise<CvRecord> {
  const answer = await askChat(apiBase, store.key, item.question);
  // As api/chat/responder.ts calls it: the widget sends no trigger point, so the default one.
  const { hits, terms } = await retrieve(
    { appId: store.appId, query: item.question, triggerPoint: "", limit: RESPONDER_LIMIT },
    host.deps,
  );
  const own = terms.filter((term) => !term.context);
  const weight = own.reduce((sum, term) => sum + term.idf, 0) || 1;
  const answered = answer.outcome !== "fallback" && answer.outcome !== "error";
  const answerWords = new Set(answered ? lexemesOf(wordsOf(answer.text)) : []);
  const leadWords = new Set(answered ? lexemesOf(wordsOf(sentencesOf(answer.text)[0] ?? "")) : []);
  const weightOf = (test: (lexeme: string) => boolean) =>
    own.filter((term) => test(term.lexeme)).reduce((sum, term) => sum + term.idf, 0) / weight;
  const best = hits[0];
  const articleUrl = site.pageUrl(articlePage(item.article));
  const onStore = kind !== "off-topic";
  const floor = onStore ? squad.floor(item.question) : null;
  const sameStore = onStore ? storeFloor(item.question) : null;
  return {
    article: item.article,
    fold: foldOf(item.article),
    kind,
    question: item.question,
    outcome: answer.outcome,
    holds: answered && holdsGold(answer.text, item.golds),
    rightSource: answer.sources[0]?.url === articleUrl,
    answer: answer.text,
    golds: item.golds,
    words: wordCount(answer.text),
    ms: answer.ms,
    floor: floor && { holds: holdsGold(floor.text, item.golds), rightSource: floor.article === item.article },
    storeFloor: sameStore && {
      holds: holdsGold(sameStore.text, item.golds),
      rightSource: sameStore.article === item.article,
    },
    evidence: answerEvidence(hits, terms),
    gate: {
      relevance: best?.relevance ?? 0,
      otherPage: hits.find((hit) => hit.url !== best?.url || hit.fileId !== best?.fileId)?.relevance ?? 0,
      inAnswer: weightOf((lexeme) => answerWords.has(lexeme)),
      inLead: weightOf((lexeme) => leadWords.has(lexeme)),
      terms: own.map((term) => ({ lexeme: term.lexeme, idf: term.idf })),
      hits: hits.map((hit) => ({ source: `${hit.urlId}/${hit.fileId}`, held: hit.held })),
      pairs: pairsNear(
        own.map((term) => term.lexeme),
        best ? `${best.title} ${best.headingPath.join(" ")} ${best.text}` : "",
      ),
    },
  };
}

const pct = (count: number, total: number) => (total ? (100 * count) / total : NaN);
const cell = (value: number) => (Number.isNaN(value) ? "   –  " : `${value.toFixed(1).padStart(5)}%`);

/** An article's figures: answerable (contains, words, first source, the floor's, fallback), unanswerable and off-topic abstained. */
function articleFigures(records: CvRecord[], article: number) {
  const mine = records.filter((r) => r.article === article);
  const answerable = mine.filter((r) => r.kind === "answerable");
  const unanswerable = mine.filter((r) => r.kind === "unanswerable");
  const offTopic = mine.filter((r) => r.kind === "off-topic");
  const count = (list: CvRecord[], test: (r: CvRecord) => boolean) => list.filter(test).length;
  return {
    article,
    answerable: answerable.length,
    contains: pct(
      count(answerable, (r) => r.holds),
      answerable.length,
    ),
    words: median(answerable.filter((r) => r.outcome !== "fallback").map((r) => r.words)),
    firstSource: pct(
      count(answerable, (r) => r.rightSource),
      answerable.length,
    ),
    floorContains: pct(
      count(answerable, (r) => !!r.floor?.holds),
      answerable.length,
    ),
    floorSource: pct(
      count(answerable, (r) => !!r.floor?.rightSource),
      answerable.length,
    ),
    storeFloorSource: pct(
      count(answerable, (r) => !!r.storeFloor?.rightSource),
      answerable.length,
    ),
    fallback: pct(
      count(answerable, (r) => r.outcome === "fallback"),
      answerable.length,
    ),
    unanswerableAbstained: pct(
      count(unanswerable, (r) => r.outcome === "fallback"),
      unanswerable.length,
    ),
    offTopicAbstained: pct(
      count(offTopic, (r) => r.outcome === "fallback"),
      offTopic.length,
    ),
  };
}

try {
  const all = await storeOf("SQuAD all ten", [...articles.keys()]);
  const without: Store[] = [];
  for (let fold = 0; fold < FOLDS; fold++)
    without.push(
      await storeOf(
        `SQuAD without fold ${fold}`,
        [...articles.keys()].filter((article) => foldOf(article) !== fold),
      ),
    );
  console.log(
    `indexed six stores in ${((performance.now() - started) / 1000).toFixed(0)} s; all ten: ${all.chunkCount} chunks`,
  );

  const storeFloor = await storeFloorOf(all);
  for (const item of squad.questions.slice(0, 5)) await askChat(apiBase, all.key, item.question); // warm-up
  const asks = [
    ...squad.questions.map((item) => ({ store: all, item, kind: item.answerable ? "answerable" : "unanswerable" })),
    ...squad.questions.map((item) => ({ store: without[foldOf(item.article)], item, kind: "off-topic" })),
  ] as { store: Store; item: SquadQuestion; kind: QuestionKind }[];
  let done = 0;
  const records = await inPool(asks, CONCURRENCY, async ({ store, item, kind }) => {
    const record = await ask(store, item, kind, storeFloor);
    if (++done % 1000 === 0) console.error(`  ${done} of ${asks.length} asked`);
    return record;
  });
  writeFileSync(OUT, records.map((r) => JSON.stringify(r)).join("\n") + "\n");

  console.log(
    `\nSQuAD 2.0 development set, ${articles.length} articles in ${FOLDS} folds, ${squad.questions.length} questions${LIMIT < Infinity ? ` (first ${LIMIT} of each article)` : ""} asked on the store of all ten, and again as off-topic on the store without their fold`,
  );
  console.log(`floor: ${FLOOR_DESCRIPTION}`);
  const header =
    "  article                       ans  contains  words  first src  floor src   Δsrc  floor has  store floor src   Δsrc  →fallback | unans abst | off-topic abst";
  const figures = [...articles.keys()].map((article) => articleFigures(records, article));
  const row = (f: ReturnType<typeof articleFigures>) =>
    `  ${titleOf(f.article).padEnd(28)} ${String(f.answerable).padStart(4)}  ${cell(f.contains)}  ${String(f.words).padStart(5)}  ${cell(f.firstSource)}   ${cell(f.floorSource)}  ${(f.firstSource - f.floorSource).toFixed(1).padStart(5)}  ${cell(f.floorContains)}    ${cell(f.storeFloorSource)}      ${(f.firstSource - f.storeFloorSource).toFixed(1).padStart(5)}  ${cell(f.fallback)} | ${cell(f.unanswerableAbstained)}  | ${cell(f.offTopicAbstained)}`;
  for (let fold = 0; fold < FOLDS; fold++) {
    console.log(`fold ${fold}: held out`);
    console.log(header);
    for (const f of figures.filter((f) => foldOf(f.article) === fold)) console.log(row(f));
  }
  const middle = (values: number[]) => median(values).toFixed(1);
  const worst = figures.reduce((low, f) =>
    f.firstSource - f.floorSource < low.firstSource - low.floorSource ? f : low,
  );
  console.log(
    `median article: contains ${middle(figures.map((f) => f.contains))}%  words ${median(figures.map((f) => f.words))}  first source ${middle(figures.map((f) => f.firstSource))}% (floor ${middle(figures.map((f) => f.floorSource))}%)  ` +
      `answerable → fallback ${middle(figures.map((f) => f.fallback))}%  unanswerable abstained ${middle(figures.map((f) => f.unanswerableAbstained))}%  off-topic abstained ${middle(figures.map((f) => f.offTopicAbstained))}%`,
  );
  console.log(
    `lowest first source against its floor: ${titleOf(worst.article)} ${(worst.firstSource - worst.floorSource).toFixed(1)} points; articles below their floor by more than a point: ${figures.filter((f) => f.firstSource < f.floorSource - 1).length}, below the store's floor: ${figures.filter((f) => f.firstSource < f.storeFloorSource - 1).length}`,
  );
  const kinds: QuestionKind[] = ["answerable", "unanswerable", "off-topic"];
  const of = (kind: QuestionKind) => records.filter((r) => r.kind === kind);
  const answerable = of("answerable");
  console.log(
    `all questions: answerable ${answerable.length} contains ${share(answerable.filter((r) => r.holds).length, answerable.length)}, first source ${share(answerable.filter((r) => r.rightSource).length, answerable.length)} (floor ${share(answerable.filter((r) => r.floor?.rightSource).length, answerable.length)}, store's floor ${share(answerable.filter((r) => r.storeFloor?.rightSource).length, answerable.length)}), fallback ${share(answerable.filter((r) => r.outcome === "fallback").length, answerable.length)}; ` +
      kinds
        .slice(1)
        .map(
          (kind) =>
            `${kind} ${of(kind).length} abstained ${share(of(kind).filter((r) => r.outcome === "fallback").length, of(kind).length)}`,
        )
        .join("; "),
  );
  const { p50, p95 } = percentiles(records.map((r) => r.ms));
  console.log(`chat p50 ${p50} ms, p95 ${p95} ms (${CONCURRENCY} at a time); records in ${OUT}`);
  console.log(`run took ${((performance.now() - started) / 1000).toFixed(0)} s`);
} finally {
  await bench.close();
  site.close();
}
