import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import onHeaders from "on-headers";
import { performance } from "node:perf_hooks";
import type { ConsoleContext, PageTiming, RequestScope } from "../context.server";
import { newRequestScope } from "../context.server";

/**
 * Server-Timing on every console page and form post, read in the browser's developer tools:
 * - `loader`: from the request to the end of its loaders (and action);
 * - `render`: from there to the headers;
 * - `api`: the time its API calls took, and how many there were;
 * - `db`: the database time the API reported for them, and its statements.
 * The API reports its own (`db`) on each answer (api/app.ts).
 */
export function serverTiming() {
  return (_req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const scope = newRequestScope();
    res.locals.requestScope = scope;
    onHeaders(res, () => {
      res.append("Server-Timing", serverTimingOf(scope.timing, performance.now()));
    });
    next();
  };
}

/** The request scope serverTiming() made for this response. */
export const requestScopeOf = (res: ExpressResponse) => res.locals.requestScope as RequestScope;

export function serverTimingOf(timing: PageTiming, now: number) {
  const loaded = timing.loadedAt ?? now;
  return [
    `loader;dur=${(loaded - timing.startedAt).toFixed(1)}`,
    `render;dur=${(now - loaded).toFixed(1)}`,
    `api;dur=${timing.apiMs.toFixed(1)};desc="${timing.apiCalls} calls"`,
    `db;dur=${timing.databaseMs.toFixed(1)};desc="${timing.statements} statements"`,
  ].join(", ");
}

/** The API's own database figures of one answer (`db;dur=…;desc="N statements"`), if it gave them. */
export function databaseTimingOf(header: string | null): { ms: number; statements: number } | null {
  const metric = /(?:^|,)\s*db;dur=([\d.]+)(?:;desc="(\d+) statements")?/.exec(header ?? "");
  return metric ? { ms: Number(metric[1]), statements: Number(metric[2] ?? 0) } : null;
}

/** `apiFetch` with each call's time, and the database time its answer reports, added to `timing`. */
export function timedApiFetch(apiFetch: ConsoleContext["apiFetch"], timing: PageTiming): ConsoleContext["apiFetch"] {
  return async (request) => {
    const started = performance.now();
    try {
      const response = await apiFetch(request);
      const database = databaseTimingOf(response.headers.get("Server-Timing"));
      if (database) {
        timing.databaseMs += database.ms;
        timing.statements += database.statements;
      }
      return response;
    } finally {
      timing.apiMs += performance.now() - started;
      timing.apiCalls += 1;
    }
  };
}

/** Marks the end of a request's loaders: entry.server calls it as the render (or data answer) begins. */
export function noteLoadersDone(context: Pick<ConsoleContext, "requestScope">) {
  const timing = context.requestScope?.timing;
  if (timing && timing.loadedAt === null) timing.loadedAt = performance.now();
}
