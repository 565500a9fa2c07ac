import { defineConfig } from "@playwright/test";
import { BASE_URL } from "./tests/e2e/ports";

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    launchOptions: {
      // Debian's Chromium; the flags keep it off a network this machine does not have.
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: {
    command: "npx tsx tests/e2e/start-servers.ts",
    url: `${BASE_URL}/healthz`,
    reuseExistingServer: false,
    // Migrating and seeding a fresh database takes ~40 s on a busy 2-core machine.
    timeout: 120_000,
    stdout: "pipe",
  },
});
