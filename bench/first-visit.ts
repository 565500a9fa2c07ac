/**
 * A first visit to the console in a fresh browser, as an operator meets it (docs/decisions/019-fast-pages.md):
 * the built server (`npm start`'s), Debian's Chromium headless driven by playwright-core, a new
 * browser each round, so nothing is cached. Each round times
 * - the browser's own start: launching it, a new context, a new page;
 * - the console's address typed in (`/`, which sends a visitor who is not signed in to the login
 *   page) to the login page's load event, and to its hydration;
 * - the development sign-in, from the click to the first screen (the client list) drawn;
 * and records each phase's requests: count, bytes on the wire, start and end, what blocked
 * rendering, and the server's own time (its Server-Timing).
 * The first round meets a server that has just started (its first render); the medians are of the
 * rounds after it.
 *   npx tsx bench/first-visit.ts     BENCH_ROUNDS=7 BENCH_PORT=4870 BENCH_BROWSER=/usr/bin/chromium by default
 * BENCH_NO_JS=1 signs in with JavaScript off (the form posts, the server redirects);
 * BENCH_CHECKOUT=<folder> runs the build in that folder instead (another commit's, to compare).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { BENCH_SERVER_ENV, startServerProcess, type ServerProcess } from "./server-process";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PORT = Number(process.env.BENCH_PORT ?? 4870);
const BROWSER = process.env.BENCH_BROWSER ?? "/usr/bin/chromium";
const NO_JS = process.env.BENCH_NO_JS === "1";
const CHECKOUT = process.env.BENCH_CHECKOUT ?? ".";
const FIRST_ADDRESS = "/";
const FIRST_SCREEN = "#clients-title";

interface Request {
  name: string;
  kind: string;
  start: number;
  end: number;
  /** Bytes on the wire (headers and compressed body). */
  transfer: number;
  body: number;
  blocking: string;
  server: string;
}

interface Phase {
  /** From the phase's start to the figure, in the page's clock. */
  ms: number;
  requests: Request[];
}

interface Round {
  launchMs: number;
  contextMs: number;
  pageMs: number;
  /** The document: redirects, request to first byte, its Server-Timing. */
  redirects: number;
  redirectMs: number;
  documentTtfbMs: number;
  documentServer: string;
  firstPaintMs: number;
  domContentLoadedMs: number;
  login: Phase;
  hydratedMs: number;
  /** goto() as Node sees it: the page's time plus the driver's round trips. */
  gotoWallMs: number;
  signIn: Phase;
  signInWallMs: number;
  /** From the click to the first screen's hydration (the same as drawn when the router drew it). */
  signInHydratedMs: number;
  signInNewDocument: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The page's resource entries that started at or after `since` (the page's clock). */
function requestsSince(page: Page, since: number): Promise<Request[]> {
  // No named functions inside: tsx's names for them (`__name`) do not exist in the page.
  return page.evaluate((from) => {
    const navigation = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    return [...navigation, ...resources]
      .filter((entry) => entry.startTime >= from)
      .map((entry) => ({
        name: new URL(entry.name).pathname + new URL(entry.name).search,
        kind: entry.initiatorType,
        start: entry.startTime - from,
        end: entry.responseEnd - from,
        transfer: entry.transferSize,
        body: entry.encodedBodySize,
        blocking: (entry as PerformanceResourceTiming & { renderBlockingStatus?: string }).renderBlockingStatus ?? "",
        server: entry.serverTiming.map((metric) => `${metric.name}=${metric.duration.toFixed(1)}`).join(" "),
      }));
  }, since);
}

async function oneRound(baseUrl: string): Promise<Round> {
  let started = performance.now();
  const browser = await chromium.launch({
    executablePath: BROWSER,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"],
  });
  const launchMs = performance.now() - started;
  try {
    started = performance.now();
    const context = await browser.newContext({ javaScriptEnabled: !NO_JS });
    const contextMs = performance.now() - started;
    started = performance.now();
    const page = await context.newPage();
    const pageMs = performance.now() - started;

    started = performance.now();
    await page.goto(`${baseUrl}${FIRST_ADDRESS}`, { waitUntil: "load" });
    const gotoWallMs = performance.now() - started;
    const timings = await page.evaluate(() => {
      const [entry] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
      const paint = performance.getEntriesByName("first-contentful-paint")[0];
      return {
        redirects: entry.redirectCount,
        redirectMs: entry.redirectEnd - entry.redirectStart,
        documentTtfbMs: entry.responseStart - entry.requestStart,
        documentServer: entry.serverTiming.map((m) => `${m.name}=${m.duration.toFixed(1)}`).join(" "),
        firstPaintMs: paint?.startTime ?? NaN,
        domContentLoadedMs: entry.domContentLoadedEventEnd,
        loadMs: entry.loadEventEnd,
      };
    });
    // Hydrated: the root's effect marks the document (app/root.tsx).
    const hydratedMs = NO_JS
      ? NaN
      : await page
          .waitForFunction(() => document.documentElement.dataset.hydrated === "true")
          .then(() => page.evaluate(() => performance.now()));
    const login: Phase = { ms: timings.loadMs, requests: await requestsSince(page, 0) };

    await page.getByLabel("Email").fill("admin@example.com");
    // The click and the first screen's heading, noted by the page itself (the driver's own round
    // trips would otherwise count as the page's time). The click is kept in sessionStorage too, in
    // the absolute clock, for a sign-in that loads a new document.
    if (!NO_JS)
      await page.evaluate((selector) => {
        const marks: { clicked?: number; drawn?: number } = {};
        Object.assign(window, { firstVisitMarks: marks });
        document.addEventListener(
          "click",
          () => {
            marks.clicked = performance.now();
            sessionStorage.setItem("firstVisitClickedAt", String(performance.timeOrigin + marks.clicked));
          },
          { capture: true, once: true },
        );
        new MutationObserver((_, observer) => {
          if (!document.querySelector(selector)) return;
          marks.drawn = performance.now();
          observer.disconnect();
        }).observe(document, { subtree: true, childList: true });
      }, FIRST_SCREEN);
    started = performance.now();
    await page.getByRole("button", { name: "Sign in (development)" }).click({ noWaitAfter: true });
    await page.locator(FIRST_SCREEN).waitFor();
    if (!NO_JS) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const signInWallMs = performance.now() - started;
    // In the same document (the router drew the screen): the page's own marks. In a new one (the
    // form posted, the server redirected): its first contentful paint, which shows the screen's
    // server-rendered heading, from the click (or, without JavaScript, from the post's start).
    await page.waitForFunction(
      () =>
        "firstVisitMarks" in window ||
        (performance.getEntriesByName("first-contentful-paint").length > 0 && document.readyState === "complete"),
      undefined,
      // Polled on a timer: without JavaScript the page runs no animation frames for it.
      { polling: 50 },
    );
    const drawn = await page.evaluate(() => {
      const marks = (window as unknown as { firstVisitMarks?: { clicked: number; drawn: number } }).firstVisitMarks;
      if (marks) return { clicked: marks.clicked, drawn: marks.drawn, hydrated: marks.drawn, newDocument: false };
      const clickedAt = sessionStorage.getItem("firstVisitClickedAt");
      const clicked = clickedAt ? Number(clickedAt) - performance.timeOrigin : 0;
      const hydrated = document.documentElement.dataset.hydrated ? performance.now() : NaN;
      const paint = performance.getEntriesByName("first-contentful-paint")[0].startTime;
      return { clicked, drawn: paint, hydrated, newDocument: true };
    });
    const signIn: Phase = { ms: drawn.drawn - drawn.clicked, requests: [] };
    // A new document's entries all belong to the sign-in; its clock started after the click.
    const from = drawn.newDocument ? 0 : drawn.clicked;
    signIn.requests = (await requestsSince(page, from)).map((request) => ({
      ...request,
      start: request.start + from - drawn.clicked,
      end: request.end + from - drawn.clicked,
    }));
    const signInHydratedMs = drawn.hydrated - drawn.clicked;
    const signInNewDocument = drawn.newDocument;
    await context.close();
    return {
      launchMs,
      contextMs,
      pageMs,
      ...timings,
      login,
      hydratedMs,
      gotoWallMs,
      signIn,
      signInWallMs,
      signInHydratedMs,
      signInNewDocument,
    };
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function printWaterfall(label: string, phase: Phase) {
  const transfer = phase.requests.reduce((sum, request) => sum + request.transfer, 0);
  console.log(`\n${label}: ${phase.requests.length} requests, ${kb(transfer)} on the wire, ${phase.ms.toFixed(0)} ms`);
  for (const request of [...phase.requests].sort((a, b) => a.start - b.start)) {
    console.log(
      `  ${request.start.toFixed(0).padStart(5)} → ${request.end.toFixed(0).padStart(5)} ms  ${kb(request.transfer).padStart(9)}  ${request.kind.padEnd(10)} ${(request.blocking || "-").padEnd(13)} ${request.name.slice(0, 70)}${request.server ? `  [${request.server}]` : ""}`,
    );
  }
}

function printRounds(rounds: Round[]) {
  const row = (label: string, pick: (round: Round) => number, unit = "ms") => {
    const values = rounds.map(pick);
    console.log(
      `${label.padEnd(48)} median ${median(values).toFixed(0).padStart(5)} ${unit.padEnd(8)} (${values.map((v) => v.toFixed(0)).join(", ")})`,
    );
  };
  row("browser: launch", (r) => r.launchMs);
  row("browser: new context + new page", (r) => r.contextMs + r.pageMs);
  row("login: redirect (/ to the login page)", (r) => r.redirectMs);
  row("login: document request to first byte", (r) => r.documentTtfbMs);
  const lastOf = (requests: Request[], test: (request: Request) => boolean) =>
    Math.max(0, ...requests.filter(test).map((request) => request.end));
  row("login: render-blocking requests received", (r) => lastOf(r.login.requests, (q) => q.blocking === "blocking"));
  row("login: last script received", (r) => lastOf(r.login.requests, (q) => q.name.endsWith(".js")));
  row("login: images received", (r) => lastOf(r.login.requests, (q) => q.kind === "img"));
  row("login: first contentful paint", (r) => r.firstPaintMs);
  row("login: DOMContentLoaded", (r) => r.domContentLoadedMs);
  row("login: load event", (r) => r.login.ms);
  row("login: goto() as the driver sees it", (r) => r.gotoWallMs);
  if (!NO_JS) row("login: hydrated", (r) => r.hydratedMs);
  row("login: requests", (r) => r.login.requests.length, "requests");
  row("login: KB on the wire", (r) => r.login.requests.reduce((sum, q) => sum + q.transfer, 0) / 1024, "KB");
  row("sign-in: click to first screen", (r) => r.signIn.ms);
  row("sign-in: click to first screen hydrated", (r) => r.signInHydratedMs);
  row("sign-in: as the driver sees it", (r) => r.signInWallMs);
  row("sign-in: loaded a new document", (r) => (r.signInNewDocument ? 1 : 0), "");
  row("sign-in: requests", (r) => r.signIn.requests.length, "requests");
  row("sign-in: KB on the wire", (r) => r.signIn.requests.reduce((sum, q) => sum + q.transfer, 0) / 1024, "KB");
  row("first visit in all (load + sign-in, page clock)", (r) => r.login.ms + r.signIn.ms);
  row("... with the browser's start", (r) => r.launchMs + r.contextMs + r.pageMs + r.login.ms + r.signIn.ms);
}

const dataDir = mkdtempSync(path.join(tmpdir(), "console-bench-first-visit-"));
const env = { ...BENCH_SERVER_ENV, DATABASE_URL: "", DATA_DIR: dataDir };
let server: ServerProcess | null = null;
try {
  // A first start seeds the database and crawls the demo site; the visits are to a later start,
  // as an operator's are, once that work is done.
  const first = await startServerProcess({ ...env, PORT: String(PORT) }, [], CHECKOUT);
  await sleep(Number(process.env.BENCH_SETTLE_MS ?? 15_000));
  await first.stop();
  server = await startServerProcess({ ...env, PORT: String(PORT + 1) }, [], CHECKOUT);
  await sleep(3_000);
  console.log(
    `first visit in a fresh browser: ${BROWSER}, JavaScript ${NO_JS ? "off" : "on"}, ${ROUNDS} rounds, build of ${path.resolve(CHECKOUT)}`,
  );
  const rounds: Round[] = [];
  for (let round = 0; round < ROUNDS; round++) rounds.push(await oneRound(server.url));
  console.log(`\n== round 1 (the server's first pages since it started)`);
  printRounds(rounds.slice(0, 1));
  console.log(`\n== rounds 2–${ROUNDS}`);
  printRounds(rounds.slice(1));
  const typical = rounds[1 + Math.floor((rounds.length - 1) / 2)];
  printWaterfall("login page (a typical round, times from the navigation's start)", typical.login);
  printWaterfall("sign-in to first screen (same round, times from the click)", typical.signIn);
} finally {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
