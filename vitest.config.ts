import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import { defineConfig } from "vitest/config";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

export default defineConfig({
  plugins: [vanillaExtractPlugin()],
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "@contract": fileURLToPath(new URL("./contract", import.meta.url)),
    },
  },
  test: {
    include: ["{api,app,contract,tests/unit}/**/*.test.{ts,tsx}"],
    setupFiles: ["./tests/support/setup.ts"],
    globalSetup: ["./tests/support/global-setup.ts"],
    // Each file opens its own database (PGlite in memory, or a throw-away Postgres database).
    pool: "forks",
    // Files run one after another in each runner's process, sharing its loaded modules: loading the
    // API host anew for each of ~150 files cost ~2 s a file. What a file leaves behind that could
    // reach the next (the knowledge caches keyed by client id) is cleared in tests/support/setup.ts.
    isolate: false,
    // Test files wait on PGlite's thread, HTTP servers, jobs and the clock (a lease that lapses, a
    // link that expires) more than they compute. Vitest's default, one fewer than the cores, left a
    // two-core machine's second core idle (297 s against 219 s with one file a core); one file more
    // than the cores fills the waits as well (122-126 s against 134-143 s with two, 134 s with four).
    maxWorkers: availableParallelism() + 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
