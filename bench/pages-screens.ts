/**
 * The console pages the page benchmarks load (bench/pages.ts, bench/pages-vs-release.ts), ten
 * operators on ten screens at once, and the server's CPU time from the kernel.
 */
import { readFileSync } from "node:fs";
import { percentile, runLoad, type LoadFigures } from "./load";

export const LOGIN = "/login";
export const AGENT_HOME = "/northfield/agent/admissions";
export const WEBSITES = "/northfield/agent/admissions/knowledge-store/websites";

/** The screens ten operators have open at once, one each. */
export const TEN_SCREENS = [
  AGENT_HOME,
  WEBSITES,
  `${AGENT_HOME}/knowledge-store/files`,
  `${AGENT_HOME}/controls/ai-personality`,
  `${AGENT_HOME}/controls/quality-check`,
  `${AGENT_HOME}/appearance`,
  `${AGENT_HOME}/bot-testing`,
  `${AGENT_HOME}/integrations`,
  `${WEBSITES}/urls`,
  `${AGENT_HOME}/controls/sensitive-topics`,
];

/** A process's CPU seconds so far (user + system), from the kernel. */
export function cpuSecondsOf(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface TenOperators {
  /** Every response time over all ten screens, sorted. */
  times: number[];
  /** Failed answers and answers other than 2xx. */
  failed: number;
  seconds: number;
  /** One run a screen, in the order of TEN_SCREENS. */
  runs: LoadFigures[];
}

/** Ten operators, each on their own screen, each asking for it again as soon as it has come. */
export async function tenOperators(baseUrl: string, cookie: string, seconds: number): Promise<TenOperators> {
  const runs = await Promise.all(
    TEN_SCREENS.map((screen) =>
      runLoad({ label: screen, url: `${baseUrl}${screen}`, headers: { cookie }, seconds, connections: 1 }),
    ),
  );
  return {
    times: runs.flatMap((run) => run.times).sort((a, b) => a - b),
    failed: runs.reduce((sum, run) => sum + run.errors + run.non2xx, 0),
    seconds,
    runs,
  };
}

export function formatTenOperators({ times, failed, seconds, runs }: TenOperators) {
  return [
    `ten operators on ten screens                 ${(times.length / seconds).toFixed(0)} req/s  p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${percentile(times, 95).toFixed(1)} ms  errors/non-2xx ${failed}`,
    ...runs.map((run) => `  ${run.label.padEnd(70)} p95 ${run.p95.toFixed(1).padStart(6)} ms  (n=${run.total})`),
  ];
}
