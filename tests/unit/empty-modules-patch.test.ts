import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * @remix-run/dev is patched (patches/@remix-run+dev+*.patch, docs/decisions/019) so the empty
 * module it puts in place of a `.server` module in the browser's bundle is free of side effects:
 * a route's import of one that binds nothing the browser uses is dropped. Unpatched, each such
 * module stayed as a chunk of its own, imported for nothing by every page that reached it (about
 * 1.6 KB of compressed JavaScript on the largest page). These tests fail when an upgrade leaves
 * the patch behind.
 */
const require = createRequire(import.meta.url);
const packageRoot = path.dirname(require.resolve("@remix-run/dev/package.json"));
const installedVersion = (
  JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string }
).version;
const { emptyModulesPlugin } = require(path.join(packageRoot, "dist/compiler/plugins/emptyModules.js")) as {
  emptyModulesPlugin: (ctx: { config: { appDirectory: string } }, filter: RegExp) => import("esbuild").Plugin;
};
const esbuild = require(require.resolve("esbuild", { paths: [packageRoot] })) as typeof import("esbuild");

const appDirectory = mkdtempSync(path.join(os.tmpdir(), "empty-modules-"));
afterAll(() => rmSync(appDirectory, { recursive: true, force: true }));

/** A route module as Remix's browser build sees it: the loader is gone, its server import is left unused. */
async function browserBundle(route: string) {
  writeFileSync(path.join(appDirectory, "data.server.ts"), "export const secret = 'server only';\n");
  writeFileSync(path.join(appDirectory, "route.tsx"), route);
  const built = await esbuild.build({
    entryPoints: [path.join(appDirectory, "route.tsx")],
    bundle: true,
    write: false,
    format: "esm",
    plugins: [emptyModulesPlugin({ config: { appDirectory } }, /\.server(\.[jt]sx?)?$/)],
  });
  return built.outputFiles[0].text;
}

describe("@remix-run/dev's empty modules", () => {
  it("is a patch made for the installed version", () => {
    const patches = readdirSync("patches").filter((name) => name.startsWith("@remix-run+dev+"));
    // A newer compiler needs the patch made again (or dropped, if the release marks them so itself).
    expect(patches).toEqual([`@remix-run+dev+${installedVersion}.patch`]);
  });

  it("leaves out of the browser's bundle a server module whose import binds nothing used there", async () => {
    const text = await browserBundle(
      'import { secret } from "./data.server";\nexport const title = "Files";\nvoid (() => secret);\n',
    );
    expect(text).toContain('"Files"');
    expect(text).not.toContain("exports = {}");
  });

  it("still gives an empty module to an import the browser's code does use", async () => {
    const text = await browserBundle('import { secret } from "./data.server";\nexport const title = String(secret);\n');
    expect(text).toContain("exports = {}");
    expect(text).not.toContain("server only");
  });
});
