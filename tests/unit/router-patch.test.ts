import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import type * as Router from "@remix-run/router";

/**
 * @remix-run/router is patched (patches/@remix-run+router+*.patch, docs/decisions/034) so a route
 * tree's flattened, ranked branches are kept per routes array and each path pattern is compiled
 * once: every page matched the console's ~100 routes from scratch several times. These tests fail
 * when an upgrade leaves the patch behind, and check that matching answers exactly as before.
 */
const require = createRequire(import.meta.url);
const packageRoot = path.dirname(require.resolve("@remix-run/router/package.json"));
const installedVersion = (
  JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string }
).version;
// Node loads the CommonJS build on the server (the package has no exports map, so `import` gets
// `main` too); the browser bundle takes the ES module build (`module`).
const builds = {
  "CommonJS (server)": require(path.join(packageRoot, "dist/router.cjs.js")) as typeof Router,
  "ES module (browser)": (await import(pathToFileURL(path.join(packageRoot, "dist/router.js")).href)) as typeof Router,
};

interface RouteNode {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteNode[];
}

/** The console's own route tree, as remix.config.js and app/routes define it. */
async function consoleRoutes(): Promise<Router.AgnosticRouteObject[]> {
  const { readConfig } = require("@remix-run/dev/dist/config.js") as {
    readConfig: (root: string, mode: string) => Promise<{ routes: Record<string, RouteNode & { parentId?: string }> }>;
  };
  // Remix prints its notice of React Router 7's future flags on standard error as it reads them.
  const quiet = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  const { routes } = await readConfig(process.cwd(), "production");
  quiet.mockRestore();
  const childrenOf = (parentId: string | undefined): RouteNode[] =>
    Object.values(routes)
      .filter((route) => route.parentId === parentId)
      .map(({ id, path, index, caseSensitive }) => {
        const children = childrenOf(id);
        return { id, path, index, caseSensitive, ...(children.length ? { children } : {}) };
      });
  return childrenOf(undefined) as Router.AgnosticRouteObject[];
}

/** Every route's path with sample values for its params, and neighbours of each (trailing slash, case, extra segment). */
function urlsOf(routes: Router.AgnosticRouteObject[]) {
  const samples = ["northfield", "Admissions", "a b", "a%2Fb", "ünï", "%E0%A4%A"];
  const urls = new Set(["/", "/nope", "//", "/northfield//agent", "/a/b/c/d/e/f/g"]);
  const walk = (nodes: Router.AgnosticRouteObject[], prefix: string) => {
    for (const node of nodes) {
      const pattern = node.path ? `${prefix}/${node.path}`.replace(/\/+/g, "/") : prefix;
      samples.forEach((_, i) => {
        const url = pattern.replace(/:[\w-]+\??/g, (param) => samples[(i + param.length) % samples.length]) || "/";
        for (const variant of [url, `${url}/`, url.toUpperCase(), `${url}/more`]) urls.add(variant);
      });
      if (node.children) walk(node.children, pattern);
    }
  };
  walk(routes, "");
  return [...urls];
}

/** A tree whose route objects count how often their children are read: only flattening reads them. */
function countingTree() {
  let reads = 0;
  const route = (id: string, path: string | undefined, children?: RouteNode[]): RouteNode => {
    const node: RouteNode = { id, path };
    Object.defineProperty(node, "children", { enumerable: true, get: () => (reads++, children) });
    return node;
  };
  const routes = [
    route("root", "", [
      route("client", ":appName", [route("agent", "agent/:agentName", [route("urls", "knowledge-store/urls")])]),
      route("login", "login"),
    ]),
  ];
  return { routes: routes as Router.AgnosticRouteObject[], reads: () => reads };
}

const shape = (matches: Router.AgnosticRouteMatch[] | null) =>
  matches?.map(({ route, params, pathname, pathnameBase }) => ({ id: route.id, params, pathname, pathnameBase })) ??
  null;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("@remix-run/router's memoized route matching", () => {
  it("is a patch made for the installed version", () => {
    const patches = readdirSync("patches").filter((name) => name.startsWith("@remix-run+router+"));
    // A newer router needs the patch made again (or dropped, if the release memoizes matching itself).
    expect(patches).toEqual([`@remix-run+router+${installedVersion}.patch`]);
  });

  for (const [build, router] of Object.entries(builds)) {
    describe(build, () => {
      it("flattens and ranks a routes array once, whatever is matched against it", () => {
        const tree = countingTree();
        expect(router.matchRoutes(tree.routes, "/northfield/agent/admissions")?.at(-1)?.route.id).toBe("agent");
        const afterFirst = tree.reads();
        expect(afterFirst).toBeGreaterThan(0);
        expect(router.matchRoutes(tree.routes, "/login")?.at(-1)?.route.id).toBe("login");
        expect(router.matchRoutes(tree.routes, "/northfield/agent/admissions/knowledge-store/urls")).toHaveLength(4);
        expect(tree.reads()).toBe(afterFirst);
      });

      it("compiles each path pattern once", () => {
        let compiled = 0;
        const NativeRegExp = RegExp;
        vi.stubGlobal(
          "RegExp",
          class extends NativeRegExp {
            constructor(...args: ConstructorParameters<typeof RegExp>) {
              super(...args);
              compiled++;
            }
          },
        );
        const pattern = { path: "/memo-check/:caseId/files/*", caseSensitive: true, end: false };
        expect(router.matchPath(pattern, "/memo-check/7/files/a/b")?.params).toEqual({ caseId: "7", "*": "a/b" });
        expect(router.matchPath(pattern, "/memo-check/8/files/c")?.params).toEqual({ caseId: "8", "*": "c" });
        expect(router.matchPath({ ...pattern, caseSensitive: false }, "/MEMO-CHECK/9/files")).not.toBeNull();
        expect(router.matchPath(pattern, "/MEMO-CHECK/9/files")).toBeNull();
        expect(compiled).toBe(2);
      });

      it("matches every console URL as a tree flattened afresh does: same routes, params and pathnames", async () => {
        const routes = await consoleRoutes();
        const urls = urlsOf(routes);
        expect(urls.length).toBeGreaterThan(1000);
        const quiet = vi.spyOn(console, "warn").mockImplementation(() => {}); // malformed %-encodings are warned about
        for (const basename of [undefined, "/northfield"])
          for (const url of urls)
            expect(shape(router.matchRoutes(routes, url, basename)), url).toEqual(
              shape(router.matchRoutes([...routes], url, basename)), // a new array: flattened afresh
            );
        quiet.mockRestore();
      });

      it("sees routes patched into a tree during lazy route discovery", async () => {
        const memoryRouter = router
          .createRouter({
            routes: [{ id: "root", path: "/", children: [{ id: "home", index: true }] }],
            history: router.createMemoryHistory(),
            patchRoutesOnNavigation: ({ path, patch }) => {
              if (path === "/discovered") patch("root", [{ id: "discovered", path: "discovered" }]);
            },
          })
          .initialize();
        await memoryRouter.navigate("/discovered");
        expect(memoryRouter.state.matches.map((match) => match.route.id)).toEqual(["root", "discovered"]);
        expect(memoryRouter.state.errors).toBeNull();
        memoryRouter.dispose();
      });
    });
  }
});
