/**
 * A test run of 500 questions, on embedded PGlite and on PostgreSQL: SQuAD 2.0's crowd-written
 * questions (the shared `qa-dev` set) as test questions of a client whose website serves the ten
 * articles as pages, indexed by the real pipeline; each question expects its gold answer's text.
 * Prints the run's seconds (queued to done), questions a second and the share that passed.
 *
 *   npx tsx bench/test-runs.ts      BENCH_QUESTIONS=500 FIXTURES_DIR=../shared/fixtures
 *   BENCH_PG=postgres://postgres@127.0.0.1:5432/postgres   BENCH_DATABASES=PGlite,PostgreSQL
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { eq } from "drizzle-orm";
import { testQuestions, testRuns } from "../api/db/schema";
import { queueTestRun } from "../api/testing/routes";
import { indexPages, servePages, HTML, type ServedPage } from "./answer-pages";
import { benchDatabases, startBenchHost } from "./support";

const FIXTURES = path.resolve(process.env.FIXTURES_DIR ?? "../shared/fixtures");
const DATASET = path.join(FIXTURES, "qa-dev", "squad2-dev-10-articles.json");
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 500);
const PG_SERVER = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";
if (!existsSync(DATASET)) {
  console.log(`test-runs: skipped, no SQuAD development set under ${FIXTURES} (set FIXTURES_DIR)`);
  process.exit(0);
}

interface SquadFile { data: { title: string; paragraphs: { context: string; qas: { question: string; is_impossible: boolean; answers: { text: string }[] }[] }[] }[] }
const articles = (JSON.parse(readFileSync(DATASET, "utf8")) as SquadFile).data;
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const pages = new Map<string, ServedPage>(articles.map((article) => {
  const title = escapeHtml(article.title.replace(/_/g, " "));
  const body = article.paragraphs.map((p) => `<p>${escapeHtml(p.context)}</p>`).join("\n");
  return [`squad/${article.title}.html`, { type: HTML, body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>` }];
}));
// Answerable questions, taken evenly across the articles, each expecting its first gold answer.
const answerable = articles.flatMap((article) => article.paragraphs.flatMap((p) => p.qas).filter((qa) => !qa.is_impossible));
const step = Math.max(1, answerable.length / QUESTIONS);
const picked = Array.from({ length: Math.min(QUESTIONS, answerable.length) }, (_, i) => answerable[Math.floor(i * step)]);

const work = mkdtempSync(path.join(tmpdir(), "console-bench-test-runs-"));
const site = await servePages(pages);
try {
  const only = process.env.BENCH_DATABASES?.split(",");
  for (const { name, open } of benchDatabases(work, PG_SERVER).filter((d) => !only || only.includes(d.name))) {
    const target = await open();
    if (!target) {
      console.log(`${name}: no server answers at ${PG_SERVER}; skipped`);
      continue;
    }
    const { host, close } = await startBenchHost(target.database, work);
    try {
      const { db } = host.deps;
      const { appId } = await indexPages(host, site.base, [...pages.keys()].map(site.pageUrl), "Test runs");
      await db.insert(testQuestions).values(picked.map((qa) => ({ appId, triggerPoint: "", question: qa.question, expectText: qa.answers[0].text })));
      const started = performance.now();
      const runId = await queueTestRun(appId, "", "stage", "bench", host.deps);
      let run: typeof testRuns.$inferSelect;
      for (;;) {
        [run] = await db.select().from(testRuns).where(eq(testRuns.id, runId));
        if (run.status === "done" || run.status === "failed") break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const seconds = (performance.now() - started) / 1000;
      console.log(`${name}: a run of ${picked.length} test questions: ${run.status} in ${seconds.toFixed(1)} s (${(picked.length / seconds).toFixed(0)} questions/s), ` +
        `${run.passed} passed (${((100 * run.passed) / picked.length).toFixed(1)} %), ${run.failed} failed`);
    } finally {
      await close();
      await target.drop();
    }
  }
} finally {
  await site.close();
  rmSync(work, { recursive: true, force: true });
}
