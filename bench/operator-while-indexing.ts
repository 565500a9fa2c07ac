/**
 * What an operator and a visitor wait for while a website is being indexed. One client's store
 * holds the bench site (`../shared/bench-site`, served on 127.0.0.1, crawled and indexed first).
 * Two calls its operator makes and a question its visitor asks, in turn, every 200 ms (one at a
 * time), first for 10 s with nothing else to do, then for as long as a second client has the same
 * site crawled and indexed: the Websites list, a save of Appearance (a write with its history
 * entry), and a page's title asked through the widget's chat call, read to the answer's end. On
 * PGlite every statement shares the database's one thread with the pipeline's grouped writes.
 *   BENCH_PAGES=2000 BENCH_SITE_PORT=8876 BENCH_SITE_DIR=../shared/bench-site
 *   BENCH_DATABASES=PGlite,PostgreSQL npx tsx bench/operator-while-indexing.ts
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { embedKeyFor } from "../api/chat/keys";
import { and, eq } from "drizzle-orm";
import { urls } from "../api/db/schema";
import type { ApiHost } from "../api/host";
import { crawlAndIndex, generateBenchSite, openedBenchDatabases, serveBenchSite, startBenchHost } from "./support";

const PAGES = Number(process.env.BENCH_PAGES ?? 2000);
const PORT = Number(process.env.BENCH_SITE_PORT ?? 8876);
const SOURCE = path.resolve(process.env.BENCH_SITE_DIR ?? "../shared/bench-site");
const PG_SERVER = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";
const EVERY_MS = 200;
const IDLE_SECONDS = 10;

if (!existsSync(path.join(SOURCE, "gen-site.mjs"))) {
  console.log(`no bench site under ${SOURCE}; set BENCH_SITE_DIR`);
  process.exit(0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** p50, p95 and the longest of some timings, in ms. */
function spread(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return `p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms (${sorted.length} calls)`;
}

/** The operator and a visitor of client `appId`, calling the API as the console and the widget do. */
async function operatorOf(host: ApiHost, appId: number) {
  const app = { id: appId };
  const [page] = await host.deps.db
    .select({ title: urls.title })
    .from(urls)
    .where(and(eq(urls.appId, appId), eq(urls.status, "indexed")))
    .limit(1);
  const call = (method: string, pathname: string, body?: unknown, token?: string) =>
    host.api.fetch(
      new Request(`http://127.0.0.1${pathname}`, {
        method,
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  const signedIn = await call("POST", "/auth/dev", { email: host.deps.config.adminEmail });
  const { user_token: token } = (await signedIn.json()) as { user_token: string };
  let width = 380;
  const timed = async (pathname: string, method = "GET", body?: unknown) => {
    const started = performance.now();
    const response = await call(method, pathname, body, token);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${method} ${pathname} answered ${response.status}`);
    return performance.now() - started;
  };
  const key = await embedKeyFor(app.id, "stage", host.deps);
  return {
    websites: () => timed(`/v1/apps/${app.id}/websites`),
    // The whole answer: the stream is read to its end.
    chat: () => timed("/v1/chat", "POST", { key, message: page.title }),
    save: () => {
      width = width === 380 ? 381 : 380;
      return timed(`/v1/appearances?appId=${app.id}`, "PUT", { appearance: { value: { width } } });
    },
  };
}

/** Calls both, in turn, every EVERY_MS until `until` says stop. */
async function probe(operator: Awaited<ReturnType<typeof operatorOf>>, until: () => boolean) {
  const websites: number[] = [];
  const saves: number[] = [];
  const questions: number[] = [];
  while (!until()) {
    const tick = performance.now();
    websites.push(await operator.websites());
    saves.push(await operator.save());
    questions.push(await operator.chat());
    await sleep(Math.max(0, EVERY_MS - (performance.now() - tick)));
  }
  return { websites, saves, questions };
}

const work = mkdtempSync(path.join(tmpdir(), "console-bench-operator-"));
const base = `http://127.0.0.1:${PORT}`;
let site: ChildProcess | null = null;
try {
  generateBenchSite(SOURCE, path.join(work, "pages"), PAGES, base);
  site = await serveBenchSite(SOURCE, path.join(work, "pages"), PORT);

  for await (const { name, database, drop } of openedBenchDatabases(work, PG_SERVER)) {
    // The visitor asks more often than a real one may (30 a minute).
    const { host, close } = await startBenchHost(database, work, { CHAT_RATE_LIMIT_PER_MINUTE: "100000" });
    try {
      const indexedFirst = await crawlAndIndex(host, base);
      const operator = await operatorOf(host, indexedFirst.app.id);
      const idleUntil = performance.now() + IDLE_SECONDS * 1000;
      const idle = await probe(operator, () => performance.now() > idleUntil);
      let indexing = true;
      const run = crawlAndIndex(host, base).finally(() => (indexing = false));
      const busy = await probe(operator, () => !indexing);
      const { started, indexed } = await run;
      const pagesPerSecond = PAGES / ((indexed - started) / 1000);
      console.log(`${name}: ${PAGES} pages crawled and indexed at ${pagesPerSecond.toFixed(0)} pages/s`);
      console.log(`${name}: Websites list, idle           ${spread(idle.websites)}`);
      console.log(`${name}: Websites list, while indexing ${spread(busy.websites)}`);
      console.log(`${name}: Appearance save, idle           ${spread(idle.saves)}`);
      console.log(`${name}: Appearance save, while indexing ${spread(busy.saves)}`);
      console.log(`${name}: a visitor's question, idle           ${spread(idle.questions)}`);
      console.log(`${name}: a visitor's question, while indexing ${spread(busy.questions)}`);
    } finally {
      await close();
      await drop();
    }
  }
} finally {
  site?.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
