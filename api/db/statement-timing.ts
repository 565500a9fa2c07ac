import { AsyncLocalStorage } from "node:async_hooks";
import { performance } from "node:perf_hooks";

/** The database time of one API request: what its Server-Timing header reports. */
export interface StatementTiming {
  ms: number;
  statements: number;
}

/** The Server-Timing metric an API answer reports its database time under. */
export const DATABASE_TIMING = "db";

const currentRequest = new AsyncLocalStorage<StatementTiming>();

/** Runs `work` (one API request) with its statements' time counted; answers that count beside its result. */
export async function countingStatements<T>(work: () => Promise<T>): Promise<{ result: T; timing: StatementTiming }> {
  const timing: StatementTiming = { ms: 0, statements: 0 };
  const result = await currentRequest.run(timing, work);
  return { result, timing };
}

/**
 * One statement, timed into the request it runs for (none outside a request: jobs, start-up).
 * The time is the statement's round trip as the caller waits for it, queueing for a connection
 * or for PGlite's thread included.
 */
export async function timedStatement<T>(run: () => Promise<T>): Promise<T> {
  const timing = currentRequest.getStore();
  if (!timing) return run();
  const started = performance.now();
  try {
    return await run();
  } finally {
    timing.ms += performance.now() - started;
    timing.statements += 1;
  }
}
