import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The server's copy of React Router's matcher is patched (patches/@remix-run+router+*.patch) to keep
 * each route tree's ranked branches, each path's compiled pattern and each pathname's matches
 * (copied out to every caller) instead of computing them again on every match. The browser's build (the ESM file) is left as published: it is the reference here.
 */
const require = createRequire(import.meta.url);
type Route = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: Route[] };
type Match = { route: { id: string }; params: Record<string, string | undefined>; pathname: string };
type MatchRoutes = (routes: Route[], location: string) => Match[] | null;
const patched = require("@remix-run/router") as { matchRoutes: MatchRoutes; matchPath: (pattern: { path: string; end?: boolean; caseSensitive?: boolean }, pathname: string) => unknown };
const published = (await import("@remix-run/router/dist/router.js")) as unknown as typeof patched;

const leaf = (id: string, path?: string, extra: Partial<Route> = {}): Route => ({ id, path, ...extra });
/** A tree shaped like the console's: a client scope, an agent scope, aliases, index routes, a splat. */
function consoleLikeRoutes(): Route[] {
  const agentPages = ["controls", "controls/ai-personality", "knowledge-store", "knowledge store", "knowledge-store/websites", "appearance", "bot-testing"]
    .map((path) => leaf(`agent/${path}`, path));
  return [{
    id: "root", path: "",
    children: [
      leaf("login", "login"),
      leaf("home", undefined, { index: true }),
      leaf("users", "users"),
      {
        id: "client", path: ":appName",
        children: [
          leaf("client/index", undefined, { index: true }),
          leaf("client/controls", "controls"),
          leaf("client/ai-training-websites", "ai-training/websites/:websiteId/chunks"),
          { id: "agent", path: "agent/:agentName", children: [leaf("agent/index", undefined, { index: true }), ...agentPages, leaf("agent/websites/one", "knowledge-store/websites/:websiteId")] },
        ],
      },
      leaf("download", "downloads/:kind/:file?"),
      leaf("not-found", "*"),
    ],
  }];
}

const paths = [
  "/", "/login", "/users", "/northfield", "/northfield/", "/northfield/controls", "/northfield/agent/admissions",
  "/northfield/agent/admissions/knowledge-store/websites", "/northfield/agent/admissions/knowledge-store/websites/42",
  "/northfield/agent/admissions/knowledge%20store", "/northfield/ai-training/websites/7/chunks", "/downloads/csv",
  "/downloads/csv/urls.csv", "/NORTHFIELD/agent/Admissions/Controls", "/nowhere/at/all/really", "/northfield/agent",
];
const summary = (matches: Match[] | null) => matches?.map((m) => [m.route.id, m.pathname, m.params]) ?? null;

describe("the server's route matcher, patched to keep what it computes", () => {
  it("is the patched file (npm ci applies patches/ through patch-package)", () => {
    expect(readFileSync(require.resolve("@remix-run/router"), "utf8")).toContain("rankedBranchesOf");
  });

  it("matches every path as the published matcher does, the first time and again on the same tree", () => {
    const routes = consoleLikeRoutes();
    for (let round = 0; round < 2; round++) {
      for (const path of paths) expect(summary(patched.matchRoutes(routes, path)), path).toEqual(summary(published.matchRoutes(routes, path)));
    }
  });

  it("gives each caller of a path it matched before its own matches, sharing one params object as before", () => {
    const routes = consoleLikeRoutes();
    const path = "/northfield/agent/admissions/knowledge-store/websites/42";
    const first = patched.matchRoutes(routes, path)!;
    first[0].params.appName = "changed by a caller";
    first.pop();
    const again = patched.matchRoutes(routes, path)!;
    expect(summary(again)).toEqual(summary(published.matchRoutes(routes, path)));
    expect(again).not.toBe(first);
    expect(new Set(again.map((m) => m.params)).size).toBe(1);
    // The same path with partial matching allowed is another question (kept apart in the cache).
    expect(patched.matchRoutes(routes, "/nowhere/at/all/really")).toEqual(published.matchRoutes(routes, "/nowhere/at/all/really"));
  });

  it("sees a new tree as new: a route added to a fresh tree matches", () => {
    const before = consoleLikeRoutes();
    expect(summary(patched.matchRoutes(before, "/reports"))?.at(-1)?.[0]).toBe("client/index");
    const after = consoleLikeRoutes();
    after[0].children!.push(leaf("reports", "reports"));
    expect(summary(patched.matchRoutes(after, "/reports"))?.at(-1)?.[0]).toBe("reports");
  });

  it("keeps case sensitivity and the end flag apart when it reuses a compiled path", () => {
    for (const pattern of [{ path: "/Users" }, { path: "/Users", caseSensitive: true }, { path: "/users", end: false }, { path: "/users" }]) {
      for (const pathname of ["/users", "/Users", "/users/7"]) {
        expect(patched.matchPath(pattern, pathname), `${JSON.stringify(pattern)} ${pathname}`).toEqual(published.matchPath(pattern, pathname));
      }
    }
  });
});
