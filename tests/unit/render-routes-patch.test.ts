import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * Two patches keep one route tree per build for server rendering (patches/@remix-run+react+*.patch
 * and patches/react-router-dom+*.patch): RemixServer made the tree again for every request, and
 * the static router converted it again into data routes, so the route matcher's per-tree caches
 * (patches/@remix-run+router+*.patch) never hit. Together they were ~15 % of a page's CPU
 * (decision 019). The journeys render every page through them; these tests pin what they rely on.
 */
const require = createRequire(import.meta.url);
type Route = { id: string; path?: string; index?: boolean; children?: Route[] };
type StaticRouter = { routes: Route[]; state: { matches: { route: Route }[] } };
const { createStaticHandler, createStaticRouter } = require("react-router-dom/server") as {
  createStaticHandler: (routes: Route[]) => { query: (request: Request) => Promise<unknown> };
  createStaticRouter: (routes: Route[], context: unknown) => StaticRouter;
};

const tree = (): Route[] => [{ id: "root", path: "/", children: [{ id: "home", index: true }, { id: "agent", path: "agent/:name" }] }];

async function contextFor(routes: Route[], url: string) {
  return createStaticHandler(routes).query(new Request(url));
}

describe("one route tree per build when rendering", () => {
  it("converts a route tree once, however many requests render it, and matches into that one tree", async () => {
    const routes = tree();
    const first = createStaticRouter(routes, await contextFor(routes, "http://localhost/agent/admissions"));
    const second = createStaticRouter(routes, await contextFor(routes, "http://localhost/"));
    expect(second.routes).toBe(first.routes);
    expect(first.state.matches.map((m) => m.route.id)).toEqual(["root", "agent"]);
    expect(second.state.matches.map((m) => m.route.id)).toEqual(["root", "home"]);
    // The matches point into the kept data routes, not at the routes the handler was given.
    expect(first.state.matches[1].route).toBe(first.routes[0].children![1]);
  });

  it("keeps another tree apart", async () => {
    const one = tree();
    const other = tree();
    const a = createStaticRouter(one, await contextFor(one, "http://localhost/"));
    const b = createStaticRouter(other, await contextFor(other, "http://localhost/"));
    expect(b.routes).not.toBe(a.routes);
  });

  it("is applied to RemixServer, which keeps its tree while the build's route modules stay the same", () => {
    const source = readFileSync(require.resolve("@remix-run/react/dist/server.js"), "utf8");
    expect(source).toContain("serverRoutesOf(manifest, routeModules, context.future, context.isSpaMode)");
    expect(source).toContain("sameModules(cached.routeModules, routeModules)");
  });
});
