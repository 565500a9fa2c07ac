import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import remixConfig from "../../remix.config.js";

/**
 * Remix v2's browser code carried single fetch (its turbo-stream decoder and data strategy, ~2.4 KB
 * of every page's compressed JavaScript) whether or not the v3_singleFetch flag is on. The console
 * does not turn it on, and patches/@remix-run+react+*.patch leaves it out of the browser build
 * (decision 019). Turning the flag on would need the patch gone: the browser throws if it finds the
 * flag on, and this test fails first.
 */
const require = createRequire(import.meta.url);
const esmDir = path.join(path.dirname(require.resolve("@remix-run/react")), "esm");
const source = (file: string) => readFileSync(path.join(esmDir, file), "utf8");

describe("single fetch, left out of the browser build", () => {
  it("is not imported by the browser's entry or components", () => {
    for (const file of ["browser.js", "components.js"]) expect(source(file)).not.toMatch(/from '\.\/single-fetch\.js'/);
  });

  it("is not asked for by the console's Remix configuration", () => {
    expect((remixConfig.future as Record<string, boolean> | undefined)?.v3_singleFetch).not.toBe(true);
  });

  it("makes the browser refuse to start with the flag on, instead of running without it", () => {
    expect(source("browser.js")).toMatch(/if \(window\.__remixContext\.future\.v3_singleFetch\) \{\s*throw new Error/);
  });
});
