/**
 * Rendered pages against the previous release, in one run on one machine (docs/decisions/034):
 * the login page and the agent home asked one at a time (median) and at 10 connections
 * (requests/s, and the server's CPU time a request), and ten operators on ten screens at once
 * (p95), for the previous release and for this tree side by side.
 *
 * The previous release is a git ref, BENCH_BASELINE_REF, by default c1bd025: the last commit
 * before the work of decision 034 (route matching memoized, public/ known at start). It is checked
 * out into a temporary worktree with its own dependencies and patches and built (bench/pages-baseline.ts);
 * this tree is built when its build is stale. Both servers run at once, each on its own embedded
 * database, and every figure is taken from them in turn (previous, this tree, previous, this tree,
 * BENCH_ROUNDS rounds of BENCH_SECONDS each), so both meet the same machine.
 *   npx tsx bench/pages-vs-release.ts      BENCH_SECONDS=5 BENCH_ROUNDS=4 BENCH_PORT=4900 by default
 * Goals on 2 cores: the agent home's median ≤ 20 ms, ten operators' p95 ≤ 150 ms, and no page
 * slower than the previous release. On a shared machine the times move with the neighbours' load
 * (the load average is printed); the server's CPU time a request moves much less.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { percentile, runLoad } from "./load";
import { checkOutAndBuild } from "./pages-baseline";
import { AGENT_HOME, LOGIN, TEN_SCREENS, cpuSecondsOf, tenOperators } from "./pages-screens";
import { BENCH_SERVER_ENV, signInCookie, startServerProcess, type ServerProcess } from "./server-process";

const BASELINE_REF = process.env.BENCH_BASELINE_REF ?? "c1bd025";
// Short turns, many of them: a neighbour's burst of work then falls on both sides alike.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const PORT = Number(process.env.BENCH_PORT ?? 4900);
/** Differences smaller than this are the machine's noise, not a slower page. */
const NOISE = 0.05;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface LoadTotals {
  requests: number;
  seconds: number;
  cpuSeconds: number;
}

/** Everything measured on one side, summed over the rounds. */
class Figures {
  sequential = { login: [] as number[], home: [] as number[] };
  loaded = {
    login: { requests: 0, seconds: 0, cpuSeconds: 0 } as LoadTotals,
    home: { requests: 0, seconds: 0, cpuSeconds: 0 } as LoadTotals,
  };
  tenScreens: number[][] = TEN_SCREENS.map(() => []);
  tenOperators: LoadTotals = { requests: 0, seconds: 0, cpuSeconds: 0 };
  failed = 0;
}

interface Side {
  label: string;
  checkout: string;
  port: number;
  dataDir: string;
  server?: ServerProcess;
  cookie: string;
  figures: Figures;
}

const base = { ...BENCH_SERVER_ENV, DATABASE_URL: "" };

/** Waits until the process has spent under 3 % of a core for 3 s running (90 s at most). */
async function quiet(pid: number) {
  for (let quietSeconds = 0, waited = 0; quietSeconds < 3 && waited < 90; waited++) {
    const before = cpuSecondsOf(pid);
    await sleep(1_000);
    quietSeconds = cpuSecondsOf(pid) - before < 0.03 ? quietSeconds + 1 : 0;
  }
}

/**
 * A first start seeds the database and reads and indexes the demo site; once it is done, the
 * figures are of a later start that runs no jobs (RUN_WORKERS=false), so both sides serve the same
 * data and only pages take the server's time.
 */
async function startSide(side: Side) {
  mkdirSync(side.dataDir);
  const env = { ...base, DATA_DIR: side.dataDir, PORT: String(side.port) };
  const first = await startServerProcess(env, [], side.checkout);
  await quiet(first.pid);
  await first.stop();
  side.server = await startServerProcess({ ...env, RUN_WORKERS: "false" }, [], side.checkout);
  side.cookie = await signInCookie(side.server.url);
  for (const page of ["login", "home"] as const)
    await runLoad({ label: "warm-up", ...requestOf(side, page), seconds: 3, connections: 10 });
}

type Measurement = (side: Side) => Promise<void>;

/** The login page is asked signed out, the agent home signed in. */
function requestOf(side: Side, page: "login" | "home"): { url: string; headers: Record<string, string> } {
  return page === "login"
    ? { url: `${side.server!.url}${LOGIN}`, headers: {} }
    : { url: `${side.server!.url}${AGENT_HOME}`, headers: { cookie: side.cookie } };
}

/** One page for BENCH_SECONDS at `connections`; failed answers are counted on the side. */
async function loadPage(side: Side, page: "login" | "home", connections: number) {
  const run = await runLoad({ label: page, ...requestOf(side, page), seconds: SECONDS, connections });
  side.figures.failed += run.errors + run.non2xx;
  return run;
}

const oneAtATime =
  (page: "login" | "home"): Measurement =>
  async (side) => {
    side.figures.sequential[page].push(...(await loadPage(side, page, 1)).times);
  };

const tenConnections =
  (page: "login" | "home"): Measurement =>
  async (side) => {
    const cpuBefore = cpuSecondsOf(side.server!.pid);
    const run = await loadPage(side, page, 10);
    const totals = side.figures.loaded[page];
    totals.requests += run.total;
    totals.seconds += SECONDS;
    totals.cpuSeconds += cpuSecondsOf(side.server!.pid) - cpuBefore;
  };

const tenOperatorsAtOnce: Measurement = async (side) => {
  const cpuBefore = cpuSecondsOf(side.server!.pid);
  const run = await tenOperators(side.server!.url, side.cookie, SECONDS);
  run.runs.forEach((screen, i) => side.figures.tenScreens[i].push(...screen.times));
  const totals = side.figures.tenOperators;
  totals.requests += run.times.length;
  totals.seconds += SECONDS;
  totals.cpuSeconds += cpuSecondsOf(side.server!.pid) - cpuBefore;
  side.figures.failed += run.failed;
};

const median = (times: number[]) =>
  percentile(
    [...times].sort((a, b) => a - b),
    50,
  );
const p95 = (times: number[]) =>
  percentile(
    [...times].sort((a, b) => a - b),
    95,
  );

/** One printed row: both figures and the change; `worse` when this tree is beyond the noise on the wrong side. */
function row(label: string, previous: number, current: number, unit: string, higherIsBetter: boolean) {
  const change = current / previous - 1;
  const worse = higherIsBetter ? change < -NOISE : change > NOISE;
  const digits = unit === "ms" && previous < 100 ? 1 : 0;
  const cell = (value: number) => `${value.toFixed(digits)} ${unit}`.padStart(13);
  console.log(
    `${label.padEnd(52)}${cell(previous)}${cell(current)}${`${change >= 0 ? "+" : ""}${(change * 100).toFixed(0)} %`.padStart(9)}${worse ? "  slower" : ""}`,
  );
  return worse ? label : null;
}

function report(previous: Side, current: Side) {
  const [a, b] = [previous.figures, current.figures];
  const perSecond = (totals: LoadTotals) => totals.requests / totals.seconds;
  const cpuMs = (totals: LoadTotals) => (totals.cpuSeconds * 1000) / Math.max(1, totals.requests);
  const allScreens = (figures: Figures) => figures.tenScreens.flat();
  console.log(`\n${"".padEnd(52)}${"previous".padStart(13)}${"this tree".padStart(13)}${"change".padStart(9)}`);
  const slower = [
    row("login page, one at a time: median", median(a.sequential.login), median(b.sequential.login), "ms", false),
    row("agent home, one at a time: median", median(a.sequential.home), median(b.sequential.home), "ms", false),
    row("login page, 10 connections", perSecond(a.loaded.login), perSecond(b.loaded.login), "req/s", true),
    row("  server CPU a request", cpuMs(a.loaded.login), cpuMs(b.loaded.login), "ms", false),
    row("agent home, 10 connections", perSecond(a.loaded.home), perSecond(b.loaded.home), "req/s", true),
    row("  server CPU a request", cpuMs(a.loaded.home), cpuMs(b.loaded.home), "ms", false),
    row("ten operators on ten screens: p95", p95(allScreens(a)), p95(allScreens(b)), "ms", false),
    row("  server CPU a request", cpuMs(a.tenOperators), cpuMs(b.tenOperators), "ms", false),
    ...TEN_SCREENS.map((screen, i) =>
      row(
        `  ${screen.replace(AGENT_HOME, "…")}: median`,
        median(a.tenScreens[i]),
        median(b.tenScreens[i]),
        "ms",
        false,
      ),
    ),
  ].filter((label) => label !== null);
  console.log(`failed or non-2xx answers: previous ${a.failed}, this tree ${b.failed}`);

  const home = median(b.sequential.home);
  const operators = p95(allScreens(b));
  const mark = (ok: boolean) => (ok ? "met" : "NOT met");
  console.log(`\ngoals on 2 cores (this machine has ${availableParallelism()}):`);
  console.log(`  agent home median ≤ 20 ms                 ${home.toFixed(1)} ms: ${mark(home <= 20)}`);
  console.log(`  ten operators p95 ≤ 150 ms                ${operators.toFixed(1)} ms: ${mark(operators <= 150)}`);
  console.log(
    `  no page slower than the previous release  ${slower.length ? `${mark(false)}: ${slower.map((label) => label.trim()).join("; ")}` : mark(true)} (beyond ${NOISE * 100} % noise)`,
  );
}

const loadAverage = () => loadavg()[0].toFixed(1);
console.log(`== rendered pages: the previous release (${BASELINE_REF}) against this tree`);
execFileSync("node", ["scripts/build-if-stale.mjs"], { stdio: "inherit" });
const baseline = checkOutAndBuild(BASELINE_REF);
console.log(
  `previous release ${BASELINE_REF} = ${baseline.commit}: dependencies ${baseline.dependencies}, built in ${baseline.builtInSeconds.toFixed(0)} s`,
);
const work = mkdtempSync(path.join(tmpdir(), "console-bench-vs-release-"));
const sides: Side[] = [
  { label: "previous", checkout: baseline.dir, port: PORT + 1, dataDir: path.join(work, "previous") },
  { label: "this tree", checkout: ".", port: PORT, dataDir: path.join(work, "current") },
].map((side) => ({ ...side, cookie: "", figures: new Figures() }));
try {
  for (const side of sides) await startSide(side);
  const measuredFrom = loadAverage();
  const measurements: [string, Measurement][] = [
    ["login page one at a time", oneAtATime("login")],
    ["agent home one at a time", oneAtATime("home")],
    ["login page at 10 connections", tenConnections("login")],
    ["agent home at 10 connections", tenConnections("home")],
    ["ten operators on ten screens", tenOperatorsAtOnce],
  ];
  for (const [name, measure] of measurements) {
    process.stdout.write(`${name}: `);
    for (let round = 1; round <= ROUNDS; round++)
      for (const side of sides) {
        process.stdout.write(`${side.label} … `);
        await measure(side);
      }
    console.log("done");
  }
  console.log(
    `(${ROUNDS} rounds of ${SECONDS} s for each figure, the two servers in turn; load average ${measuredFrom} before, ${loadAverage()} after)`,
  );
  report(sides[0], sides[1]);
} finally {
  for (const side of sides) await side.server?.stop();
  rmSync(work, { recursive: true, force: true });
  baseline.remove();
}
