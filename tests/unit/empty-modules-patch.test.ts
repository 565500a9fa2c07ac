import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * Remix's browser build swaps each `*.server` module for an empty one. Patched
 * (patches/@remix-run+dev+*.patch) to say the empty module has no side effects, so esbuild drops an
 * import of it that nothing uses (a route's loader imports, once the loader is gone) instead of
 * emitting a chunk for it per set of importers: the websites drawers loaded seven such files
 * (decision 019).
 */
const require = createRequire(import.meta.url);
const { build } = require("esbuild") as typeof import("esbuild");
const { emptyModulesPlugin } = require("@remix-run/dev/dist/compiler/plugins/emptyModules.js") as {
  emptyModulesPlugin: (ctx: { config: { appDirectory: string } }, filter: RegExp) => import("esbuild").Plugin;
};

const appDirectory = mkdtempSync(path.join(tmpdir(), "empty-modules-"));
afterAll(() => rmSync(appDirectory, { recursive: true, force: true }));

describe("server-only modules in the browser build", () => {
  it("leave no chunk behind when only server code used them", async () => {
    writeFileSync(path.join(appDirectory, "data.server.ts"), "export const secret = 'server only'; console.log('side effect');");
    writeFileSync(path.join(appDirectory, "shared.ts"), "export const shared = (n: number) => n * 2;");
    writeFileSync(path.join(appDirectory, "a.ts"), "import { secret } from './data.server'; import { shared } from './shared'; const loader = () => secret; export const view = () => shared(1);");
    writeFileSync(path.join(appDirectory, "b.ts"), "import { secret } from './data.server'; import { shared } from './shared'; const loader = () => secret; export const view = () => shared(2);");
    const result = await build({
      entryPoints: ["a.ts", "b.ts"].map((name) => path.join(appDirectory, name)),
      bundle: true, splitting: true, format: "esm", write: false, outdir: path.join(appDirectory, "out"), minify: false, treeShaking: true,
      // As in Remix's browser build of a route, the loader using the server module is not kept.
      plugins: [emptyModulesPlugin({ config: { appDirectory } }, /\.server(\.[jt]sx?)?$/)],
      logLevel: "silent",
    });
    const outputs = result.outputFiles.map((file) => ({ name: path.basename(file.path), text: file.text }));
    expect(outputs.every((file) => !file.text.includes("server only") && !file.text.includes("side effect"))).toBe(true);
    // a and b share `shared`: one chunk, and none for the empty module both imported.
    const chunks = outputs.filter((file) => file.name.startsWith("chunk-"));
    expect(chunks).toHaveLength(1);
    expect(chunks[0].text).toContain("n * 2");
    expect(outputs.some((file) => file.text.includes("module.exports = {}"))).toBe(false);
  });
});
