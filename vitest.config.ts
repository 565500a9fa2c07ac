import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  plugins: [vanillaExtractPlugin()],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)), "@contract": fileURLToPath(new URL("./contract", import.meta.url)) },
  },
  test: {
    include: ["{api,app,contract,tests/unit}/**/*.test.{ts,tsx}"],
    setupFiles: ["./tests/support/setup.ts"],
    // Each file opens its own database (PGlite in memory, or a throw-away Postgres database).
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
