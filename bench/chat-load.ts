/**
 * Chat under load: 50 visitors asking at once, each posting questions through POST /v1/chat in a
 * loop and reading every NDJSON stream to its end, over the knowledge the real pipeline indexed from
 * the generated 5,000-page site (`../shared/bench-site`). Run on embedded PGlite and on PostgreSQL;
 * prints answers/s, p50 and p95 latency, errors, the fallback share and the share of answers whose
 * first source is the page the question was made from.
 *
 *   npx tsx bench/chat-load.ts
 *   BENCH_PAGES=5000 BENCH_SECONDS=30 BENCH_VISITORS=50 BENCH_SITE_PORT=8765 BENCH_SITE_DIR=../shared/bench-site
 *   BENCH_PG=postgres://postgres@127.0.0.1:5432/postgres (PostgreSQL is skipped when none answers)
 *   BENCH_DATABASES=PGlite,PostgreSQL (the default: both)
 *   BENCH_THINK_SECONDS=8 (a second pass: the same visitors, each reading an answer and typing the
 *   next question for 0.5–1.5 times this long before asking it: the pace a person chats at; 0 skips it)
 *   BENCH_PROFILE=dir (writes a V8 CPU profile of each database's load window there, for DevTools)
 */
import type { ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import type { AddressInfo } from "node:net";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { serve } from "@hono/node-server";
import { and, eq, sql } from "drizzle-orm";
import { embedKeyFor } from "../api/chat/keys";
import { retrieve, type FirstStage } from "../api/knowledge/index/search";
import { vocabularyOf } from "../api/knowledge/index/vocabulary";
import { forgetEveryClientsStats } from "../api/knowledge/index/corpus-stats";
import type { DatabaseOptions } from "../api/db/client";
import { urls } from "../api/db/schema";
import { askChat, share, type Asked } from "./answer-pages";
import {
  crawlAndIndex,
  firstStageSummary,
  generateBenchSite,
  openedBenchDatabases,
  percentiles,
  serveBenchSite,
  startBenchHost,
} from "./support";

const PAGES = Number(process.env.BENCH_PAGES ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const VISITORS = Number(process.env.BENCH_VISITORS ?? 50);
const THINK_SECONDS = Number(process.env.BENCH_THINK_SECONDS ?? 8);
const SAMPLE = 500;
const PORT = Number(process.env.BENCH_SITE_PORT ?? 8765);
const SOURCE = path.resolve(process.env.BENCH_SITE_DIR ?? "../shared/bench-site");
if (!existsSync(path.join(SOURCE, "gen-site.mjs"))) {
  console.log(`no bench site under ${SOURCE}; set BENCH_SITE_DIR`);
  process.exit(0);
}
const PG_SERVER = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";

const work = mkdtempSync(path.join(tmpdir(), "console-bench-chat-load-"));
const siteDir = path.join(work, "site");
const base = `http://127.0.0.1:${PORT}`;
const withoutSlash = (url: string) => url.replace(/\/$/, "");

interface Question {
  message: string;
  page: string;
  phrased: boolean;
}

/**
 * The API host on `database`, indexing the whole site through the real jobs (discovery through the
 * sitemaps, then every page), then answering chat over HTTP on 127.0.0.1 with the chat rate limit
 * out of the way: 50 visitors from one address ask far more than one visitor may.
 */
async function indexAndServe(database: DatabaseOptions) {
  const { host, close } = await startBenchHost(database, work, {
    CRAWL_CONCURRENCY_PER_HOST: "10",
    CHAT_RATE_LIMIT_PER_MINUTE: "100000000",
  });
  try {
    const { db } = host.deps;
    const { app, website, started, indexed: finished } = await crawlAndIndex(host, base);
    const seconds = (finished - started) / 1000;
    // Fresh statistics, as bench/answer-pages.ts takes them, so retrieval is planned for the full table.
    await db.execute(sql`analyze chunks`);
    const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
    // The store's words, read once for the typo correction of retrieval (api/knowledge/index/vocabulary.ts).
    forgetEveryClientsStats(); // the client id of the previous database's run
    const vocabularyStarted = performance.now();
    const vocabulary = await vocabularyOf(app.id, db);
    const vocabularyRead = {
      ms: performance.now() - vocabularyStarted,
      words: [...vocabulary.byLength.values()].reduce((sum, words) => sum + words.lexemes.length, 0),
    };
    const [{ chunks }] = rows<{ chunks: number }>(
      await db.execute(sql`select count(*)::int as chunks from chunks where app_id = ${app.id}`),
    );
    const indexed = await db
      .select({ url: urls.url, title: urls.title })
      .from(urls)
      .where(and(eq(urls.websiteId, website.id), eq(urls.status, "indexed")));
    // Retrieval alone for questions asked for the first time (their words' passage counts read from
    // the index, unless an earlier question shared them) and for the same questions again.
    const retrievalMs = async (messages: string[]) => {
      const started = performance.now();
      for (const query of messages) await retrieve({ appId: app.id, query, limit: 20 }, host.deps);
      return (performance.now() - started) / messages.length;
    };
    const fresh = questionsFrom(indexed)
      .slice(-40)
      .map((q) => q.message);
    await retrievalMs(["opening hours"]);
    const retrieval = { firstTime: await retrievalMs(fresh), again: await retrievalMs(fresh) };
    // Retrieval alone over every question of the load, one at a time: its spread, and how its first
    // stage went.
    const timings: number[] = [];
    const firstStages: (FirstStage | undefined)[] = [];
    for (const { message } of questionsFrom(indexed)) {
      const started = performance.now();
      firstStages.push((await retrieve({ appId: app.id, query: message, limit: 20 }, host.deps)).firstStage);
      timings.push(performance.now() - started);
    }
    const eachQuestion = { ...percentiles(timings), firstStage: firstStageSummary(firstStages) };
    const key = await embedKeyFor(app.id, "stage", host.deps);
    const api = serve({ fetch: host.api.fetch, port: 0, hostname: "127.0.0.1" });
    if (!api.listening) await new Promise((resolve) => api.once("listening", resolve));
    return {
      apiBase: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
      key,
      indexed,
      chunks,
      seconds,
      vocabularyRead,
      retrieval,
      eachQuestion,
      close: async () => {
        api.close();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A deterministic sample of article pages, evenly spread over them in URL order (discovery order
 * varies between runs), `offset` steps on (0.5: the pages between the first sample's); each gives two questions: its title alone, as a visitor types a topic, and
 * a sentence around it.
 */
function questionsFrom(pages: { url: string; title: string }[], offset = 0): Question[] {
  const articles = pages
    .filter((p) => p.url.includes("/articles/") && p.title.trim())
    .sort((a, b) => (a.url < b.url ? -1 : 1));
  const step = Math.max(1, articles.length / SAMPLE);
  const sample = Array.from(
    { length: Math.min(SAMPLE, articles.length) },
    (_, i) => articles[Math.floor((i + offset) * step) % articles.length],
  );
  return sample.flatMap(({ url, title }) => [
    { message: title, page: url, phrased: false },
    { message: `What does the page say about ${title}?`, page: url, phrased: true },
  ]);
}

/**
 * VISITORS loops for SECONDS, each asking the next question as soon as its last answer has been
 * read (thinkSeconds 0: as fast as the server answers), or after pausing 0.5–1.5 times thinkSeconds
 * (a person reading the answer and typing the next question; visitors start spread over one pause).
 */
async function load(apiBase: string, key: string, questions: Question[], thinkSeconds = 0) {
  const results: { question: Question; answer: Asked }[] = [];
  const ask = async (question: Question): Promise<Asked> => {
    const begun = performance.now();
    try {
      return await askChat(apiBase, key, question.message);
    } catch {
      return { text: "", outcome: "error", sources: [], ms: performance.now() - begun, conversationId: null };
    }
  };
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  // Each visitor starts at its own place in the questions, so the visitors do not ask the same one at once.
  const pause = (share: number) => new Promise((resolve) => setTimeout(resolve, share * thinkSeconds * 1000));
  await Promise.all(
    Array.from({ length: VISITORS }, async (_, visitor) => {
      await pause(visitor / VISITORS);
      for (let n = Math.floor((visitor * questions.length) / VISITORS); performance.now() < deadline; n++) {
        const question = questions[n % questions.length];
        results.push({ question, answer: await ask(question) });
        await pause(0.5 + Math.random());
      }
    }),
  );
  // The answers still running at the deadline are counted, so the time runs to the last of them.
  return { results, seconds: (performance.now() - started) / 1000 };
}

/** Seconds of CPU time every core of the machine has spent busy since boot (Linux's /proc/stat; 0 elsewhere). */
function machineCpuSeconds() {
  if (!existsSync("/proc/stat")) return 0;
  const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = ticks;
  return (user + nice + system + irq + softirq + steal) / 100; // USER_HZ is 100 on Linux
}

/** A V8 CPU profile of this process (the API host and the visitors share it), stopped into a file. */
async function startProfile() {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return {
    stop: async (file: string) => {
      const { profile } = await session.post("Profiler.stop");
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`  CPU profile of the load window: ${file}`);
    },
  };
}

let server: ChildProcess | null = null;
try {
  // The generator and the page server need only Node, so the copy leaves out the Crawlee packages.
  cpSync(SOURCE, siteDir, { recursive: true, filter: (from) => !from.includes("node_modules") });
  generateBenchSite(siteDir, path.join(work, "pages"), PAGES, base);
  server = await serveBenchSite(siteDir, path.join(work, "pages"), PORT);

  for await (const target of openedBenchDatabases(work, PG_SERVER)) {
    const { name } = target;
    try {
      const site = await indexAndServe(target.database);
      try {
        console.log(
          `${name}: indexed ${site.indexed.length} pages (${site.chunks} chunks) in ${site.seconds.toFixed(1)} s; ` +
            `its ${site.vocabularyRead.words} distinct words read in ${site.vocabularyRead.ms.toFixed(0)} ms (once per ten minutes, in the background of the first question that needs word counts or has a misspelt word)`,
        );
        console.log(
          `  retrieval alone, one question at a time: ${site.retrieval.firstTime.toFixed(1)} ms asked for the first time, ${site.retrieval.again.toFixed(1)} ms asked again (its words' passage counts known); ` +
            `over the load's questions p50 ${site.eachQuestion.p50} ms, p95 ${site.eachQuestion.p95} ms`,
        );
        console.log(`  ${site.eachQuestion.firstStage}`);
        const questions = questionsFrom(site.indexed);
        // A few answers first, so the first visitors do not also pay for cold caches and connections.
        for (const question of questions.slice(0, 5)) await askChat(site.apiBase, site.key, question.message);
        const profiler = process.env.BENCH_PROFILE ? await startProfile() : null;
        const cpuBefore = { node: process.cpuUsage(), machine: machineCpuSeconds() };
        const { results, seconds } = await load(site.apiBase, site.key, questions);
        const nodeUsed = process.cpuUsage(cpuBefore.node);
        const cpu = { node: (nodeUsed.user + nodeUsed.system) / 1e6, machine: machineCpuSeconds() - cpuBefore.machine };
        if (profiler) await profiler.stop(path.join(process.env.BENCH_PROFILE!, `chat-load-${name}.cpuprofile`));
        const answered = results.filter((r) => r.answer.outcome !== "error");
        const errors = results.length - answered.length;
        const fallbacks = answered.filter((r) => r.answer.outcome === "fallback").length;
        const right = (r: { question: Question; answer: Asked }) =>
          withoutSlash(r.answer.sources[0]?.url ?? "") === withoutSlash(r.question.page);
        const { p50, p95 } = answered.length
          ? percentiles(answered.map((r) => r.answer.ms))
          : { p50: "NaN", p95: "NaN" };
        console.log(
          `${name}: ${VISITORS} visitors, ${SECONDS} s: ${(answered.length / seconds).toFixed(0)} answers/s, p50 ${Number(p50).toFixed(0)} ms, p95 ${Number(p95).toFixed(0)} ms, errors ${errors}; ` +
            `fallback ${share(fallbacks, answered.length)}, first source right ${share(answered.filter(right).length, answered.length)}`,
        );
        console.log(
          `  CPU per answer: ${((1000 * cpu.node) / answered.length).toFixed(1)} ms in this process (API host and visitors), ` +
            `${((1000 * (cpu.machine - cpu.node)) / answered.length).toFixed(1)} ms elsewhere (the database, the page server, the system); ` +
            `the ${cpus().length} cores were busy ${share(Math.round(cpu.machine * 1000), Math.round(seconds * cpus().length * 1000))} of the time`,
        );
        const byForm = (phrased: boolean) => answered.filter((r) => r.question.phrased === phrased);
        console.log(
          `  (${answered.length} answers to ${questions.length} questions from ${questions.length / 2} pages; first source right: ` +
            `title alone ${share(byForm(false).filter(right).length, byForm(false).length)}, "What does the page say about …?" ${share(byForm(true).filter(right).length, byForm(true).length)})`,
        );
        if (THINK_SECONDS > 0) {
          // Other pages' questions: none asked in the first pass.
          const paced = await load(site.apiBase, site.key, questionsFrom(site.indexed, 0.5), THINK_SECONDS);
          const pacedAnswers = paced.results.filter((r) => r.answer.outcome !== "error");
          const { p50: pacedP50, p95: pacedP95 } = pacedAnswers.length
            ? percentiles(pacedAnswers.map((r) => r.answer.ms))
            : { p50: "NaN", p95: "NaN" };
          console.log(
            `${name}: ${VISITORS} visitors chatting, each pausing ${THINK_SECONDS * 0.5}–${THINK_SECONDS * 1.5} s to read and type, ${SECONDS} s: ` +
              `${(pacedAnswers.length / paced.seconds).toFixed(1)} answers/s, p50 ${Number(pacedP50).toFixed(0)} ms, p95 ${Number(pacedP95).toFixed(0)} ms, errors ${paced.results.length - pacedAnswers.length}`,
          );
        }
      } finally {
        await site.close();
      }
    } finally {
      await target.drop();
    }
  }
} finally {
  server?.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
