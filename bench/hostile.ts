/**
 * What one hostile request costs the server (docs/decisions/016-safe-by-default.md): the form
 * posts that used to make the form parser build arrays of tens of millions of slots, and a 64 MB
 * form. For each: the answer's status and time, the server's peak resident memory while it was
 * answered (sampled every 10 ms from the kernel), and the longest stretch in which /healthz did
 * not answer. The built server (`npm run build`) runs in a child process of its own, on embedded
 * PGlite and then on a throw-away PostgreSQL database when one answers at BENCH_PG.
 *   npx tsx bench/hostile.ts
 * BENCH_CHECKOUT=<folder of another built checkout> measures that build instead (e.g. a commit
 * from before the forms were bounded, to compare).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { BENCH_SERVER_ENV, rssMbOf, signInCookie, startServerProcess, type ServerProcess } from "./server-process";
import { throwawayPostgres } from "./support";

const PG = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PORT = Number(process.env.BENCH_PORT ?? 4900);
const CHECKOUT = process.env.BENCH_CHECKOUT ?? ".";
/** A request still unanswered after this long is given up (the server may have died). */
const GIVE_UP_MS = 120_000;

interface HostileRequest {
  label: string;
  path: string;
  body: () => string;
  signedIn: boolean;
}

const devSignIn = "intent=dev&email=admin%40example.com";
const REQUESTS: HostileRequest[] = [
  {
    label: "sign-in form with x[30000000]=1",
    path: "/login?index",
    body: () => `${devSignIn}&x[30000000]=1`,
    signedIn: false,
  },
  {
    label: "sign-in form with x[100000000]=1",
    path: "/login?index",
    body: () => `${devSignIn}&x[100000000]=1`,
    signedIn: false,
  },
  {
    label: "Access Control save with users[99999999].id=1",
    path: "/northfield/access-control",
    body: () => "intent=save&users[99999999].id=1",
    signedIn: true,
  },
  {
    label: "a 64 MB form to the sign-in page",
    path: "/login?index",
    body: () => `${devSignIn}&x=${"a".repeat(64 * 1024 * 1024)}`,
    signedIn: false,
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (pid: number) => existsSync(`/proc/${pid}`);

/** Polls /healthz every 100 ms until stopped; answers the longest time without a 200. */
function watchHealth(url: string) {
  let stopped = false;
  let lastHealthy = performance.now();
  let longestGap = 0;
  const loop = (async () => {
    while (!stopped) {
      try {
        const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) });
        await response.arrayBuffer();
        if (response.status === 200) lastHealthy = performance.now();
      } catch {
        // no answer within a second: the gap goes on
      }
      longestGap = Math.max(longestGap, performance.now() - lastHealthy);
      await sleep(100);
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    return longestGap;
  };
}

/** Samples the server's RSS every 10 ms until stopped; answers the highest. */
function watchMemory(pid: number) {
  let peak = 0;
  const timer = setInterval(() => {
    if (alive(pid)) peak = Math.max(peak, rssMbOf(pid));
  }, 10);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

async function send(server: ServerProcess, request: HostileRequest, cookie: string) {
  const started = performance.now();
  try {
    const response = await fetch(`${server.url}${request.path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        origin: server.url,
        "content-type": "application/x-www-form-urlencoded",
        ...(request.signedIn ? { cookie } : {}),
      },
      body: request.body(),
      signal: AbortSignal.timeout(GIVE_UP_MS),
    });
    await response.arrayBuffer();
    return { status: String(response.status), ms: performance.now() - started };
  } catch (error) {
    return { status: `no answer (${(error as Error).name})`, ms: performance.now() - started };
  }
}

async function measureOn(label: string, env: Record<string, string>) {
  console.log(`\n== ${label}${CHECKOUT === "." ? "" : ` (build of ${CHECKOUT})`}`);
  console.log(
    `${"request".padEnd(48)} ${"status".padEnd(22)} ${"answer".padStart(9)}  ${"peak RSS".padStart(9)}  ${"idle RSS".padStart(9)}  /healthz away`,
  );
  let port = PORT;
  for (const request of REQUESTS) {
    // A server of its own for each request: the figures of one must not carry the garbage of another.
    const server = await startServerProcess({ ...env, PORT: String(port++) }, [], CHECKOUT);
    try {
      const cookie = await signInCookie(server.url);
      await (await fetch(`${server.url}/login`)).arrayBuffer();
      await sleep(1_000);
      const idle = server.rssMb();
      const stopHealth = watchHealth(server.url);
      const stopMemory = watchMemory(server.pid);
      const outcome = await send(server, request, cookie);
      await sleep(300); // the last memory and health samples
      const peak = stopMemory();
      const away = await stopHealth();
      const died = alive(server.pid) ? "" : "  the server process ended";
      console.log(
        `${request.label.padEnd(48)} ${outcome.status.padEnd(22)} ${`${outcome.ms.toFixed(0)} ms`.padStart(9)}  ${`${peak} MB`.padStart(9)}  ${`${idle} MB`.padStart(9)}  ${`${(away / 1000).toFixed(1)} s`.padStart(6)}${died}`,
      );
    } finally {
      await server.stop();
    }
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), "console-bench-hostile-"));
try {
  await measureOn("embedded PGlite", { ...BENCH_SERVER_ENV, DATA_DIR: dataDir, DATABASE_URL: "" });
  const postgres = await throwawayPostgres(PG);
  if (!postgres) console.log(`\n(no PostgreSQL at ${PG}: the PostgreSQL figures are skipped)`);
  else {
    try {
      await measureOn("PostgreSQL", { ...BENCH_SERVER_ENV, DATA_DIR: dataDir, DATABASE_URL: postgres.url });
    } finally {
      await postgres.drop();
    }
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
