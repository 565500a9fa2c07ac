/**
 * A test run of 500 questions, on embedded PGlite and on PostgreSQL: SQuAD 2.0's crowd-written
 * questions (the shared `qa-dev` set) as test questions of a client whose website serves the ten
 * articles as pages, indexed by the real pipeline; each question expects its gold answer's text.
 * Prints the run's seconds (queued to done), questions a second and the share that passed; then
 * the time from a control saved through the API to its run's result (after a quiet minute, so the
 * one-run-a-minute rule does not hold it back), and the History call over 100,000 recorded changes
 * (p50/p95 of the API call the History screen makes: the first page, a kind, a person, a deep page).
 *
 *   npx tsx bench/test-runs.ts      BENCH_QUESTIONS=500 FIXTURES_DIR=../shared/fixtures
 *   BENCH_PG=postgres://postgres@127.0.0.1:5432/postgres   BENCH_DATABASES=PGlite,PostgreSQL
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { CHANGE_KINDS } from "@contract";
import { configChanges, testQuestions, testRuns } from "../api/db/schema";
import { apiCaller, signInAs } from "../tests/support/test-host";
import { startTestRun } from "../api/testing/waiting-runs";
import { indexPages, servePages, HTML, type ServedPage } from "./answer-pages";
import { openedBenchDatabases, percentiles, startBenchHost } from "./support";

const FIXTURES = path.resolve(process.env.FIXTURES_DIR ?? "../shared/fixtures");
const DATASET = path.join(FIXTURES, "qa-dev", "squad2-dev-10-articles.json");
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 500);
const HISTORY_CHANGES = Number(process.env.BENCH_HISTORY_CHANGES ?? 100_000);
const PG_SERVER = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";
if (!existsSync(DATASET)) {
  console.log(`test-runs: skipped, no SQuAD development set under ${FIXTURES} (set FIXTURES_DIR)`);
  process.exit(0);
}

interface SquadFile {
  data: {
    title: string;
    paragraphs: { context: string; qas: { question: string; is_impossible: boolean; answers: { text: string }[] }[] }[];
  }[];
}
const articles = (JSON.parse(readFileSync(DATASET, "utf8")) as SquadFile).data;
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const pages = new Map<string, ServedPage>(
  articles.map((article) => {
    const title = escapeHtml(article.title.replace(/_/g, " "));
    const body = article.paragraphs.map((p) => `<p>${escapeHtml(p.context)}</p>`).join("\n");
    return [
      `squad/${article.title}.html`,
      {
        type: HTML,
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`,
      },
    ];
  }),
);
// Answerable questions, taken evenly across the articles, each expecting its first gold answer.
const answerable = articles.flatMap((article) =>
  article.paragraphs.flatMap((p) => p.qas).filter((qa) => !qa.is_impossible),
);
const step = Math.max(1, answerable.length / QUESTIONS);
const picked = Array.from(
  { length: Math.min(QUESTIONS, answerable.length) },
  (_, i) => answerable[Math.floor(i * step)],
);

type Call = ReturnType<typeof apiCaller>;
type Host = Awaited<ReturnType<typeof startBenchHost>>["host"];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A Quality Check save through the API, timed until the stage run it queues is done. */
async function saveToResult(host: Host, call: Call, token: string, appId: number) {
  const { db } = host.deps;
  // The last runs started over a minute ago: the save's run is not held back for the rest of that minute.
  await db
    .update(testRuns)
    .set({ createdAt: sql`${testRuns.createdAt} - interval '2 minutes'` })
    .where(eq(testRuns.appId, appId));
  const before =
    (
      await db
        .select({ id: testRuns.id })
        .from(testRuns)
        .where(eq(testRuns.appId, appId))
        .orderBy(desc(testRuns.id))
        .limit(1)
    )[0]?.id ?? 0;
  const started = performance.now();
  const saved = await call("PUT", `/v1/controls?app_id=${appId}`, {
    token,
    body: {
      app_id: appId,
      controls: [
        {
          app_id: appId,
          trigger_point: "",
          internal_name: "quality_check",
          metadata: { min_retrieval_confidence: 0.35, max_sources: 3 },
        },
      ],
    },
  });
  if (saved.status !== 200) return `control save answered ${saved.status}: ${JSON.stringify(saved.body).slice(0, 300)}`;
  for (;;) {
    const [run] = await db
      .select()
      .from(testRuns)
      .where(and(eq(testRuns.appId, appId), eq(testRuns.environment, "stage"), gt(testRuns.id, before)));
    if (run && (run.status === "done" || run.status === "failed")) {
      return `a control save to its stage run's result (${run.passed + run.failed} questions): ${((performance.now() - started) / 1000).toFixed(1)} s`;
    }
    await sleep(50);
  }
}

/** 100,000 recorded changes by 20 people, then the History screen's API call, timed. */
async function historyCalls(host: Host, call: Call, token: string, appId: number) {
  const { db } = host.deps;
  // The save's production run goes on meanwhile: the calls are timed once no run is left.
  while (
    (
      await db
        .select({ id: testRuns.id })
        .from(testRuns)
        .where(and(eq(testRuns.appId, appId), inArray(testRuns.status, ["queued", "running"])))
    ).length
  )
    await sleep(100);
  const state = (n: number) => ({
    guidelines: `Speak plainly. Version ${n}.`,
    topics: Array.from({ length: 8 }, (_, i) => ({ topic: `Topic ${i}`, response: `Response ${n}-${i}` })),
  });
  const at = Date.now();
  for (let start = 0; start < HISTORY_CHANGES; start += 2_000) {
    await db.insert(configChanges).values(
      Array.from({ length: Math.min(2_000, HISTORY_CHANGES - start) }, (_, i) => {
        const n = start + i;
        return {
          appId,
          at: new Date(at - (HISTORY_CHANGES - n) * 60_000),
          userEmail: `person${n % 20}@example.com`,
          kind: CHANGE_KINDS[n % CHANGE_KINDS.length],
          target: "",
          summary: `Change ${n}`,
          before: state(n),
          after: state(n + 1),
        };
      }),
    );
  }
  await db.execute(sql`analyze config_changes`);
  const lines: string[] = [];
  for (const [label, query] of [
    ["first page", ""],
    ["one kind", "&kind=controls"],
    ["one person", "&user=person7%40example.com"],
    ["page 1,000", "&page=1000"],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      const started = performance.now();
      const { status } = await call("GET", `/v1/apps/${appId}/history?page_size=25${query}`, { token });
      if (status !== 200) return `history answered ${status}`;
      times.push(performance.now() - started);
    }
    const { p50, p95 } = percentiles(times.slice(5));
    lines.push(`${label} p50 ${p50} / p95 ${p95}`);
  }
  return `History over ${HISTORY_CHANGES.toLocaleString("en")} changes, the screen's API call: ${lines.join("; ")}`;
}

const work = mkdtempSync(path.join(tmpdir(), "console-bench-test-runs-"));
const site = await servePages(pages);
try {
  for await (const target of openedBenchDatabases(work, PG_SERVER)) {
    const { name } = target;
    const { host, close } = await startBenchHost(target.database, work, { AUTH_DEV_LOGIN: "true" });
    try {
      const { db } = host.deps;
      const { appId } = await indexPages(host, site.base, [...pages.keys()].map(site.pageUrl), "Test runs");
      await db
        .insert(testQuestions)
        .values(
          picked.map((qa) => ({ appId, triggerPoint: "", question: qa.question, expectText: qa.answers[0].text })),
        );
      const started = performance.now();
      const runId = await startTestRun({ appId, triggerPoint: "", environment: "stage" }, "bench", host.deps);
      let run: typeof testRuns.$inferSelect;
      for (;;) {
        [run] = await db.select().from(testRuns).where(eq(testRuns.id, runId));
        if (run.status === "done" || run.status === "failed") break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `${name}: a run of ${picked.length} test questions: ${run.status} in ${seconds.toFixed(1)} s (${(picked.length / seconds).toFixed(0)} questions/s), ` +
          `${run.passed} passed (${((100 * run.passed) / picked.length).toFixed(1)} %), ${run.failed} failed`,
      );
      const call = apiCaller(host);
      const token = (await signInAs(host, "admin@example.com")).user_token;
      console.log(`${name}: ${await saveToResult(host, call, token, appId)}`);
      console.log(`${name}: ${await historyCalls(host, call, token, appId)}`);
    } finally {
      await close();
      await target.drop();
    }
  }
} finally {
  await site.close();
  rmSync(work, { recursive: true, force: true });
}
