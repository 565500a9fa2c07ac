/**
 * The console server as a user meets it: `server.ts` in a child process of its own (so the load
 * generator does not share its CPU time or its memory figures), on a free data folder or a
 * throw-away PostgreSQL database, with RSS read from the kernel.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

export interface ServerProcess {
  url: string;
  pid: number;
  /** Milliseconds from spawn to "ready" (the server's own log line). */
  startedInMs: number;
  /** Resident memory of the server process in MB, as the kernel counts it. */
  rssMb: () => number;
  stop: () => Promise<void>;
}

export function rssMbOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

function waitForExit(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

/**
 * What every bench's server runs with: built, dev sign-in on, its own API in the process, on
 * loopback, with fixed secrets; each bench adds its data folder and database.
 */
export const BENCH_SERVER_ENV = {
  NODE_ENV: "production",
  AUTH_DEV_LOGIN: "true",
  API_URL: "",
  HOST: "127.0.0.1",
  SESSION_SECRET: "bench-session",
  API_JWT_SECRET: "bench-jwt",
};

/** The server `npm start` runs (`npm run build` writes it: scripts/build-server.mjs). */
export const BUILT_SERVER = "build/server/server.mjs";

/**
 * Starts the built server (`node build/server/server.mjs`, as `npm start` does) with `env` over
 * the current environment and waits for its ready line. `nodeOptions` go before the script
 * (e.g. `--cpu-prof`); `checkout` is the folder whose build runs (another commit's, to compare).
 */
export async function startServerProcess(
  env: Record<string, string>,
  nodeOptions: string[] = [],
  checkout = ".",
): Promise<ServerProcess> {
  if (!existsSync(path.join(checkout, BUILT_SERVER)))
    throw new Error(`no ${BUILT_SERVER} in ${checkout}: run npm run build first`);
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeOptions, BUILT_SERVER], {
    cwd: checkout,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const ready = /Console ready on (\S+)/.exec(log);
      if (ready) resolve(ready[1]);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => {
      log += chunk.toString();
    });
    child.once("exit", (code) =>
      reject(new Error(`server exited with ${code} before it was ready:\n${log.slice(-2000)}`)),
    );
  });
  const startedInMs = performance.now() - started;
  // Keep draining its output so a chatty server never blocks on a full pipe.
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    url,
    pid: child.pid!,
    startedInMs,
    rssMb: () => rssMbOf(child.pid!),
    stop: async () => {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await waitForExit(child);
      clearTimeout(killer);
    },
  };
}

/** Signs in through the login form's development sign-in; answers the cookie header to send. */
export async function signInCookie(url: string, email = "admin@example.com") {
  const response = await fetch(`${url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "dev", email }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (response.status !== 302 || !cookie.includes("__session")) throw new Error(`sign-in failed: ${response.status}`);
  return cookie;
}
