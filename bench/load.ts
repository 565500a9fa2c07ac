/**
 * One load run with autocannon: N connections for a while against one page, as a browser would ask
 * for it (cookie, compression accepted). Every response time is kept so p95 is exact; autocannon's
 * own histogram reports p90 and p97.5, not p95.
 */
import autocannon from "autocannon";

export interface LoadFigures {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
  /** Every response time in ms, sorted. */
  times: number[];
}

export interface LoadOptions {
  label: string;
  url: string;
  headers?: Record<string, string>;
  connections?: number;
  seconds?: number;
}

export function percentile(sorted: number[], p: number) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function runLoad({
  label,
  url,
  headers = {},
  connections = 50,
  seconds = 30,
}: LoadOptions): Promise<LoadFigures> {
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, connections, duration: seconds, headers: { "accept-encoding": "br, gzip", ...headers } },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => {
      times.push(responseTime);
    });
  });
  times.sort((a, b) => a - b);
  return {
    label,
    requestsPerSecond: result.requests.total / result.duration,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
    times,
  };
}

export function formatLoad(figures: LoadFigures, floor?: LoadFigures) {
  const ratio = floor ? `  ${(figures.requestsPerSecond / floor.requestsPerSecond).toFixed(2)}× the floor's req/s` : "";
  return (
    `${figures.label.padEnd(44)} ${figures.requestsPerSecond.toFixed(0).padStart(5)} req/s  ` +
    `p50 ${figures.p50.toFixed(1).padStart(6)} ms  p95 ${figures.p95.toFixed(1).padStart(6)} ms  p99 ${figures.p99.toFixed(1).padStart(6)} ms  ` +
    `errors ${figures.errors}  non-2xx ${figures.non2xx}  (n=${figures.total})${ratio}`
  );
}
