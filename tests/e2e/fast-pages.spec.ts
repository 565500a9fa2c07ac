import { get } from "node:http";
import path from "node:path";
import { pageScripts, readManifest, routeWeights, sourceModulesOf } from "../../bench/js-weight";
import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";
import { BASE_URL } from "./ports";

/** The budget: what a browser downloads in JavaScript to open any console route, with Remix as published. */
const JS_BUDGET_BYTES = 112 * 1024;

test("pages and API answers are compressed, brotli when the browser takes it, gzip otherwise", async ({ page }) => {
  await signIn(page);
  const brotli = await page.request.get("/northfield/agent/admissions", { headers: { "accept-encoding": "br, gzip" } });
  expect(brotli.status()).toBe(200);
  expect(brotli.headers()["content-encoding"]).toBe("br");
  expect(brotli.headers()["vary"]).toMatch(/accept-encoding/i);
  expect(await brotli.text()).toContain("<html");

  const gzip = await page.request.get("/northfield/agent/admissions", { headers: { "accept-encoding": "gzip" } });
  expect(gzip.headers()["content-encoding"]).toBe("gzip");

  const json = await page.request.get("/v1/openapi.json", { headers: { "accept-encoding": "br" } });
  expect(json.headers()["content-encoding"]).toBe("br");
  expect((await json.json()).openapi).toBeTruthy();
});

/** The first bytes of an answer as sent, before any decoding (Playwright's and fetch's clients decode). */
function rawFirstByte(url: string, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    get(url, { headers }, (response) => {
      response.once("data", (chunk: Buffer) => {
        resolve(chunk[0]);
        response.destroy();
      });
    }).on("error", reject);
  });
}

test("brotli answers use a 256 KB window, not the 4 MB default whose encoders cost megabytes an answer", async () => {
  // A brotli stream opens with its window: bit 0 set and bits 1-3 holding n give 2^(17 + n) bytes.
  for (const pathname of ["/login", "/v1/openapi.json"]) {
    const first = await rawFirstByte(`${BASE_URL}${pathname}`, { "accept-encoding": "br" });
    expect(first & 1, pathname).toBe(1);
    expect(17 + ((first >> 1) & 7), pathname).toBe(18);
  }
});

test("built scripts are served from their precompressed copies and keep their year-long cache", async ({ request }) => {
  const manifest = readManifest(path.resolve("public"));
  for (const encoding of ["br", "gzip"]) {
    const response = await request.get(manifest.entry.imports[0], { headers: { "accept-encoding": encoding } });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-encoding"]).toBe(encoding);
    expect(response.headers()["content-type"]).toMatch(/javascript/);
    expect(response.headers()["cache-control"]).toContain("max-age=31536000");
    expect(response.headers()["cache-control"]).toContain("immutable");
  }
  const plain = await request.get(manifest.entry.module, { headers: { "accept-encoding": "identity" } });
  expect(plain.headers()["content-encoding"]).toBeUndefined();
});

test("the files at the top of public/ are served under their own names; other paths go to the console", async ({
  request,
}) => {
  const widget = await request.get("/widget.js", { headers: { "accept-encoding": "br" } });
  expect(widget.status()).toBe(200);
  expect(widget.headers()["content-encoding"]).toBe("br");
  expect(widget.headers()["cache-control"]).toContain("max-age=3600");
  expect((await request.get("/favicon.svg")).headers()["content-type"]).toContain("image/svg+xml");
  expect((await request.get("/integrations/canvas.svg")).status()).toBe(200);
  // A look-alike of an asset's name is the console's (sign in first, then its 404), not a file.
  const missing = await request.get("/widget.js.map", { maxRedirects: 0 });
  expect([302, 404]).toContain(missing.status());
  expect(missing.headers()["content-type"] ?? "").not.toContain("javascript");
});

test("a page says where its time went: loaders, render, API calls and database time (Server-Timing)", async ({
  signedInPage: page,
}) => {
  const response = await page.request.get("/northfield/agent/admissions/knowledge-store/websites");
  expect(response.status()).toBe(200);
  const timing = response.headers()["server-timing"] ?? "";
  expect(timing).toMatch(/loader;dur=[\d.]+/);
  expect(timing).toMatch(/render;dur=[\d.]+/);
  const api = /api;dur=[\d.]+;desc="(\d+) calls"/.exec(timing);
  const database = /db;dur=[\d.]+;desc="(\d+) statements"/.exec(timing);
  expect(Number(api?.[1])).toBeGreaterThan(0);
  expect(Number(database?.[1])).toBeGreaterThan(0);
});

test("a first visit asks for one stylesheet and no image before the login page's load, nor for the mark after sign-in", async ({
  page,
}) => {
  // A new context has an empty cache: what a fresh browser asks for. On HTTP/1.1 the browser holds
  // an image back behind the page's ~30 module scripts, so the load event waited for the mark; a
  // second stylesheet was one more request before the first paint.
  const asked: { type: string; url: string }[] = [];
  page.on("request", (request) => asked.push({ type: request.resourceType(), url: new URL(request.url()).pathname }));
  await page.goto("/", { waitUntil: "load" });
  await expect(page).toHaveURL(/\/login$/);
  expect(asked.filter((request) => request.type === "stylesheet").map((request) => request.url)).toHaveLength(1);
  expect(asked.filter((request) => request.type === "image").map((request) => request.url)).toEqual([]);

  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Email").fill("admin@example.com");
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Assistant Console/ })).toBeVisible();
  expect(asked.filter((request) => request.url === "/logo.svg")).toEqual([]);
});

test("every console route opens with at most 112 KB of compressed JavaScript", () => {
  const over = routeWeights(path.resolve("public"))
    .filter((route) => route.brotli > JS_BUDGET_BYTES)
    .map((route) => `${route.pattern}: ${(route.brotli / 1024).toFixed(1)} KB`);
  expect(over).toEqual([]);
});

test("a page whose forms are plain downloads none of the form library", () => {
  const pages = pageScripts(readManifest(path.resolve("public")));
  /** Whether each page whose pattern matches loads the form library. */
  const loadingFormLibrary = (pagePattern: RegExp) => {
    const matched = pages.filter((page) => pagePattern.test(page.pattern));
    expect(matched.length, `no page matches ${pagePattern}`).toBeGreaterThan(0);
    return matched.map((page) => [...sourceModulesOf(page.files)].some((module) => module.includes("@conform-to/")));
  };
  // The new client form is built on it, so the check is seen to find it.
  expect(loadingFormLibrary(/^\/clients\/new-client$/)).toEqual([true]);
  // A conversation's corrections and the test questions' table are plain forms.
  expect(loadingFormLibrary(/\/conversations\/:conversationId$/)).not.toContain(true);
  expect(loadingFormLibrary(/\/controls\/test-questions$/)).not.toContain(true);
});

test("a page carries only its own routes of the manifest, and links to other screens still navigate in the browser", async ({
  signedInPage: page,
}) => {
  const manifestFiles: string[] = [];
  const discovered: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (/^\/build\/manifest-/.test(pathname)) manifestFiles.push(pathname);
    if (pathname === "/__manifest") discovered.push(request.url());
  });
  const html = await (await page.request.get("/northfield/agent/admissions")).text();
  const inline = /window\.__remixManifest = (\{[\s\S]*?\n\});/.exec(html);
  const known = Object.keys((JSON.parse(inline![1]) as { routes: object }).routes);
  expect(known).toContain("routes/$appName.agent.$agentName._index");
  expect(known).not.toContain("routes/$appName.agent.$agentName.knowledge-store.websites");
  expect(known.length).toBeLessThan(12);

  await page.goto("/northfield/agent/admissions");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  // The navigation's links are looked up in the background, then a click is a client-side navigation.
  await expect.poll(() => discovered.length).toBeGreaterThan(0);
  await page.evaluate(() => ((window as unknown as { __clientNavigation: boolean }).__clientNavigation = true));
  await page.getByRole("link", { name: "Websites" }).first().click();
  await expect(page).toHaveURL(/\/knowledge-store\/websites$/);
  await expect(page.getByRole("table")).toBeVisible();
  const clientNavigation = () =>
    page.evaluate(() => (window as unknown as { __clientNavigation?: boolean }).__clientNavigation);
  expect(await clientNavigation()).toBe(true);
  // The shell's links are plain anchors one handler follows in the app: breadcrumbs too, and back works.
  const crumb = page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link").last();
  const crumbTarget = await crumb.getAttribute("href");
  await crumb.click();
  await expect(page).toHaveURL(new RegExp(`${crumbTarget}$`));
  expect(await clientNavigation()).toBe(true);
  await page.goBack();
  await expect(page).toHaveURL(/\/knowledge-store\/websites$/);
  expect(await clientNavigation()).toBe(true);
  expect(manifestFiles).toEqual([]);
});

const QUALITY_CHECK = "/northfield/agent/studentsuccess/controls/quality-check";
const saveButton = (page: Page) => page.getByTestId("save-bar").getByRole("button", { name: "Save" });

/** Whether the page has fetched zod's runtime so far (its error class is named in it), and how many scripts are still on their way. */
function watchScripts(page: Page) {
  const seen = { zod: false, pending: 0 };
  page.on("request", (request) => {
    if (request.resourceType() === "script") seen.pending += 1;
  });
  const done = () => {
    seen.pending -= 1;
  };
  page.on("requestfailed", (request) => {
    if (request.resourceType() === "script") done();
  });
  page.on("requestfinished", async (request) => {
    if (request.resourceType() !== "script") return;
    const body = await (await request.response())?.text().catch(() => "");
    if (body?.includes("ZodError")) seen.zod = true;
    done();
  });
  return seen;
}

/** The quality check's saves posted to the server. */
function watchSaves(page: Page) {
  const saves: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === QUALITY_CHECK) saves.push(request.url());
  });
  return saves;
}

test("a form's schema loads when the form is first used, then checks in the browser", async ({
  signedInPage: page,
}) => {
  const seen = watchScripts(page);
  const saves = watchSaves(page);
  await page.goto(QUALITY_CHECK);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  expect(seen.zod).toBe(false);

  const confidence = page.getByLabel("Minimum Retrieval Confidence");
  await confidence.focus();
  await expect.poll(() => seen.zod && seen.pending === 0).toBe(true);
  await page.evaluate(() => new Promise(requestAnimationFrame)); // the form takes the schema on its next render
  await confidence.fill("1.5");
  await saveButton(page).click();
  await expect(confidence).toHaveAccessibleDescription(/Enter a number from 0 to 1/);
  expect(saves).toEqual([]);
});

test("before a form's schema arrives the form posts and the server's message shows beside the field", async ({
  signedInPage: page,
}) => {
  const saves = watchSaves(page);
  await page.goto(QUALITY_CHECK);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  // The schema's script never arrives.
  await page.route(/\/build\//, (route) => route.abort());

  const confidence = page.getByLabel("Minimum Retrieval Confidence");
  await confidence.fill("1.5");
  await saveButton(page).click();
  await expect(confidence).toHaveAccessibleDescription(/Enter a number from 0 to 1/);
  expect(saves).toHaveLength(1);
});
