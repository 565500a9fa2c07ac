/**
 * Prints latency figures for the foundation: sign-in, the API calls every page makes, a rendered
 * shell page, and a job's trip through pg-boss. Embedded PGlite in memory, one process, real HTTP
 * on 127.0.0.1. Figures, not pass/fail: these machines are noisy.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startServer } from "../server";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);

function summary(label: string, samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  console.log(
    `${label.padEnd(42)} n=${String(samples.length).padStart(4)}  p50 ${at(50).toFixed(2).padStart(7)} ms  p95 ${at(95).toFixed(2).padStart(7)} ms`,
  );
}

async function time(run: () => Promise<unknown>, rounds = ROUNDS) {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return samples;
}

const dataDir = mkdtempSync(path.join(tmpdir(), "console-bench-"));
const started = performance.now();
const running = await startServer({ ...process.env, PORT: "0", DATA_DIR: dataDir, DATABASE_URL: "", API_URL: "" });
console.log(`server start (migrate + seed + jobs)          ${(performance.now() - started).toFixed(0)} ms`);
try {
  const url = running.url;
  const signIn = async () => {
    const response = await fetch(`${url}/auth/dev`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@example.com" }),
    });
    return (await response.json()) as { user_token: string; refresh_token: string };
  };
  summary("POST /auth/dev", await time(signIn, 50));
  const { user_token } = await signIn();
  const auth = { authorization: `Bearer ${user_token}` };
  summary(
    "GET /v1/apps?status=active",
    await time(() => fetch(`${url}/v1/apps?status=active`, { headers: auth }).then((r) => r.text())),
  );
  summary(
    "GET /v1/users/get_info",
    await time(() => fetch(`${url}/v1/users/get_info`, { headers: auth }).then((r) => r.text())),
  );

  const login = await fetch(`${url}/login`, {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams({ intent: "dev", email: "admin@example.com" }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  summary(
    "GET /northfield/agent/admissions (SSR page)",
    await time(() => fetch(`${url}/northfield/agent/admissions`, { headers: { cookie } }).then((r) => r.text())),
  );

  const jobTrip = async () => {
    const sent = await fetch(`${url}/v1/jobs/purge-refresh-tokens/run`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: "{}",
    });
    const { id } = (await sent.json()) as { id: string };
    for (;;) {
      const job = (await (await fetch(`${url}/v1/jobs/purge-refresh-tokens/${id}`, { headers: auth })).json()) as {
        state: string;
      };
      if (job.state === "completed") return;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  summary("job send → completed (pg-boss on PGlite)", await time(jobTrip, 30));
  console.log(
    `rss after run                                 ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`,
  );
} finally {
  await running.close();
  rmSync(dataDir, { recursive: true, force: true });
}
