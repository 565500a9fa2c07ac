import { describe, expect, it } from "vitest";
import { newRequestScope } from "../context.server";
import { databaseTimingOf, noteLoadersDone, serverTimingOf, timedApiFetch } from "./server-timing.server";

describe("a page's Server-Timing", () => {
  it("adds up its API calls and the database time their answers report", async () => {
    const scope = newRequestScope();
    const api = async () => new Response("{}", { headers: { "Server-Timing": 'db;dur=2.5;desc="3 statements"' } });
    const fetchApi = timedApiFetch(api, scope.timing);
    await fetchApi(new Request("http://api.internal/v1/apps"));
    await fetchApi(new Request("http://api.internal/v1/me"));
    expect(scope.timing).toMatchObject({ apiCalls: 2, databaseMs: 5, statements: 6 });
    noteLoadersDone({ requestScope: scope });
    const header = serverTimingOf(scope.timing, scope.timing.loadedAt! + 4);
    expect(header).toMatch(
      /^loader;dur=[\d.]+, render;dur=4\.0, api;dur=[\d.]+;desc="2 calls", db;dur=5\.0;desc="6 statements"$/,
    );
  });

  it("reads the API's db metric among others, and nothing from an answer without one", () => {
    expect(databaseTimingOf('app;dur=9, db;dur=1.25;desc="4 statements"')).toEqual({ ms: 1.25, statements: 4 });
    expect(databaseTimingOf(null)).toBeNull();
    expect(databaseTimingOf("cache;dur=1")).toBeNull();
  });

  it("counts a call that fails, and keeps the first end of the loaders", async () => {
    const scope = newRequestScope();
    const failing = timedApiFetch(async () => Promise.reject(new Error("refused")), scope.timing);
    await expect(failing(new Request("http://api.internal/v1/apps"))).rejects.toThrow("refused");
    expect(scope.timing.apiCalls).toBe(1);
    noteLoadersDone({ requestScope: scope });
    const first = scope.timing.loadedAt;
    noteLoadersDone({ requestScope: scope });
    expect(scope.timing.loadedAt).toBe(first);
  });
});
