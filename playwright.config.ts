import { defineConfig } from "@playwright/test";
import { BASE_URL } from "./tests/e2e/ports";
import { CHROMIUM, HEADLESS_SHELL } from "./tests/e2e/browsers.mjs";

/** Debian's Chromium, with flags that keep it off a network this machine does not have. */
const launchedFrom = (executablePath: string) => ({
  launchOptions: {
    executablePath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
});

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // A journey waits on real jobs (crawls, indexing) and runs accessibility scans; on a busy 2-core
  // machine some take 25 s or more, so a test gets a minute. A step waits up to 10 s: while the
  // other worker's journey indexes a site, a save on a machine three times slower than usual has
  // taken more than 5 s. A broken step still fails in seconds, not at the test's minute.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: BASE_URL,
    // A failed journey keeps its trace (each action with its timing and error, and the page's
    // console) and Playwright's error-context.md (the error, and the page's accessibility tree when
    // it failed). Neither DOM snapshots nor screenshots are recorded: every journey pays for them,
    // passing or not, and the lane took 15 % longer with the snapshots alone (decision 038).
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: false, sources: false },
  },
  // The two sweeps take minutes each: the hostile-request sweep (every page, action and API
  // operation sent malformed requests) and the route sweep (every route read for its finish, with
  // the layout measurements of polish.spec.ts beside it). CI runs them after `npm test`
  // (`npm run test:route-sweep`, `npm run test:hostile`), so the everyday suite stays a tool people run.
  //
  // The journeys and the hostile sweep run in Debian's headless shell (chromium-headless-shell, built
  // from the same Chromium source as the browser): the same Blink and V8 without the browser's
  // window layer, and what Playwright itself runs headless tests in. The journey lane took a third
  // less time in it (decision 042). The route sweep reads every screen in the full browser, so
  // CI still sees each one there too.
  projects: [
    {
      name: "journeys",
      testIgnore: /(hostile-requests|hostile-sitemaps|route-sweep|polish)\.spec\.ts$/,
      use: launchedFrom(HEADLESS_SHELL),
    },
    { name: "route-sweep", testMatch: /(route-sweep|polish)\.spec\.ts$/, use: launchedFrom(CHROMIUM) },
    { name: "hostile", testMatch: /hostile-(requests|sitemaps)\.spec\.ts$/, use: launchedFrom(HEADLESS_SHELL) },
  ],
  // On PostgreSQL (E2E_DATABASE_URL, `npm run test:e2e:pg`) the console is asked to stop before
  // Playwright kills it, so that it drops its throw-away database (tests/e2e/databases.ts).
  ...(process.env.E2E_DATABASE_URL ? { globalTeardown: "./tests/e2e/stop-servers.ts" } : {}),
  webServer: {
    command: "npx tsx tests/e2e/start-servers.ts",
    url: `${BASE_URL}/healthz`,
    reuseExistingServer: false,
    // Generous: on a busy 2-core machine the first start (migrations, seed, first crawl) is slow.
    timeout: 180_000,
    stdout: "pipe",
  },
});
