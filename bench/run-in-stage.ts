/**
 * "Run in stage" as an operator meets it: the built server (as `npm start` runs it) on a new data
 * folder, embedded PGlite and then a throw-away PostgreSQL database; its first start reads and
 * indexes the demo site and runs the admissions agent's demo questions, and the agent is given
 * more, 20 in all, about the demo site's pages. Then the console's own form post of Run in stage,
 * timed until the run it opens is done (its API read every 50 ms; the page itself shows it at its
 * next refresh, every 2 s with JavaScript and 3 s without). Twice over: with no run waiting, and
 * with a run that a change queued just after the last one, waiting out the rest of its minute.
 *
 *   npm run build && npx tsx bench/run-in-stage.ts      BENCH_ROUNDS=5
 *   BENCH_PG=postgres://postgres@127.0.0.1:5432/postgres
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { BENCH_SERVER_ENV, signInCookie, startServerProcess, type ServerProcess } from "./server-process";
import { throwawayPostgres } from "./support";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PG_SERVER = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SCREEN = "/northfield/agent/admissions/controls/test-questions";
const QUESTIONS = 20;

/** Questions about the demo site's pages, beside the seven the agent ships with: 20 in all. */
const MORE_QUESTIONS = [
  ["When is the early action deadline?", "November 1"],
  ["What does tuition cost for out-of-state students?", "$19,800"],
  ["How much do housing and meals cost?", "$6,100"],
  ["When is the FAFSA due?", "March 1"],
  ["How large are merit scholarships?", "$2,000 to $10,000"],
  ["Can tuition be paid in installments?", "four monthly installments"],
  ["How many student clubs are there?", "150"],
  ["Are first-year students guaranteed a room?", "guaranteed a room"],
  ["What does the Wellness Center provide?", "primary care and counseling"],
  ["When is the admissions office open?", "8:30 am to 5 pm"],
  ["What is the admissions office's phone number?", "(555) 010-1891"],
  ["Is a GMAT score required for the MBA?", "GMAT"],
  ["When was Northfield founded?", "1891"],
].map(([question, text]) => ({ question, expect_text: text }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function freePort() {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface RunSummary {
  id: number;
  status: string;
  trigger: string;
  total: number;
  passed: number;
  created_at: string;
}

/** The API of the server as a script calls it, with an administrator's bearer token. */
async function apiOf(server: ServerProcess) {
  const signIn = await fetch(`${server.url}/auth/dev`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@example.com" }),
  });
  const { user_token: token } = (await signIn.json()) as { user_token: string };
  const call = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${server.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${route} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    return (await response.json()) as T;
  };
  const { apps } = await call<{ apps: { id: number; url_code: string }[] }>("GET", "/v1/apps?status=active");
  return { call, appId: apps.find((app) => app.url_code === "northfield")!.id };
}

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function onDatabase(label: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "console-bench-run-in-stage-"));
  const server = await startServerProcess({
    ...BENCH_SERVER_ENV,
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    ...env,
  });
  try {
    const { call, appId } = await apiOf(server);
    const stageRuns = async () =>
      (
        await call<{ data: RunSummary[] }>(
          "GET",
          `/v1/apps/${appId}/test_runs?trigger_point=admissions&environment=stage`,
        )
      ).data;
    const firstStart = performance.now();
    const [seeded] = await until(
      "the first start's stage run",
      async () => {
        const runs = await stageRuns();
        return runs[0]?.status === "done" && runs;
      },
      180_000,
    );
    console.log(
      `${label}: first start, the demo site indexed and its ${seeded.total} questions run in stage (${seeded.passed} passed), ` +
        `done ${seconds(performance.now() - firstStart)} after the server answered`,
    );
    await call("POST", `/v1/apps/${appId}/test_questions/import`, {
      trigger_point: "admissions",
      questions: MORE_QUESTIONS,
    });
    const cookie = await signInCookie(server.url);

    /** The console's Run in stage form post, timed until the run it opened is done. */
    const runInStage = async () => {
      const started = performance.now();
      const posted = await fetch(`${server.url}${SCREEN}`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "run", environment: "stage" }),
      });
      const runId = Number(/\/runs\/(\d+)/.exec(posted.headers.get("location") ?? "")?.[1]);
      if (posted.status !== 302 || !runId) throw new Error(`Run in stage answered ${posted.status}`);
      const run = await until(
        `run ${runId}`,
        async () => {
          const now = await call<RunSummary>("GET", `/v1/apps/${appId}/test_runs/${runId}`);
          return (now.status === "done" || now.status === "failed") && now;
        },
        120_000,
      );
      if (run.total !== QUESTIONS) throw new Error(`the run asked ${run.total} questions, not ${QUESTIONS}`);
      return { ms: performance.now() - started, run };
    };

    const idle: number[] = [];
    let passed = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const { ms, run } = await runInStage();
      idle.push(ms);
      passed = run.passed;
    }
    console.log(
      `${label}: Run in stage to a finished run of ${QUESTIONS} questions (${passed} passed), no run waiting: ` +
        `median ${seconds(median(idle))}, slowest ${seconds(Math.max(...idle))} (${ROUNDS} rounds)`,
    );

    const waiting: number[] = [];
    const heldFor: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // A change just after the last run: its run is held back for the rest of that minute.
      const [last] = await stageRuns();
      await call("PUT", "/v1/controls", {
        app_id: appId,
        controls: [
          {
            app_id: appId,
            internal_name: "ai_personality_guidelines",
            trigger_point: "admissions",
            prompt_input_raw: `Answer in full sentences (${label}, round ${round}).`,
          },
        ],
      });
      const [held] = await stageRuns();
      if (held.status !== "queued" || held.id === last.id)
        throw new Error(`the change's run is ${held.status}, not waiting`);
      heldFor.push(Date.parse(last.created_at) + 60_000 - Date.now());
      const { ms, run } = await runInStage();
      if (run.id !== held.id || run.trigger !== "controls saved, started by hand") {
        throw new Error(`Run in stage opened run ${run.id} (${run.trigger}), not the waiting ${held.id}`);
      }
      waiting.push(ms);
    }
    console.log(
      `${label}: Run in stage to a finished run of ${QUESTIONS} questions, an automatic run waiting for its minute: ` +
        `median ${seconds(median(waiting))}, slowest ${seconds(Math.max(...waiting))} ` +
        `(held back by the rule, it would have started ${seconds(median(heldFor))} after the click)`,
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await onDatabase("PGlite", {});
const postgres = await throwawayPostgres(PG_SERVER);
if (!postgres) console.log(`PostgreSQL: no server answers at ${PG_SERVER}; skipped`);
else {
  try {
    await onDatabase("PostgreSQL", { DATABASE_URL: postgres.url });
  } finally {
    await postgres.drop();
  }
}
