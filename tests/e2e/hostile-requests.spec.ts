/**
 * Hostile requests never get a 5xx and never take the server down (docs/decisions/016): every
 * console action, every console page and every operation of the API's OpenAPI document is sent
 * a fixed list of malformed requests (tests/support/hostile-requests.ts), and after each one the
 * server must still answer /healthz. Failures are collected, not thrown at the first, so one run
 * shows all of them.
 *
 * It runs its own console on its own data folder: what these requests write (renamed clients,
 * deleted rows, signed-out sessions) must not reach the journeys sharing the main e2e server. The
 * console runs in a child process, as `npm start` and tests/e2e/start-servers.ts run it beside
 * the tests: a request that crashes it or exhausts its memory must fail this test, not end it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, request, test, type APIRequestContext } from "@playwright/test";
import type { ServerBuild } from "@remix-run/node";
import {
  apiReadRequests,
  apiTargets,
  apiUrl,
  apiWriteRequests,
  consoleActionRequests,
  consolePageRequests,
  consoleRoutes,
  consoleVocabulary,
  countsLine,
  leakPattern,
  type HostileRequest,
  type OpenApiDocument,
} from "../support/hostile-requests";
import { ownConsoleEnv, startConsoleProcess, type ConsoleProcess } from "../support/console-process";
import { OVERSIZED_BODY_BYTES, postRawBody } from "../support/oversized-body";
import { E2E } from "./ports";

// Beside the main e2e servers (base + 0, 1, 10, 11).
const PORT = E2E.appPort + 20;
const ADMIN = "admin@example.com";
const REQUEST_TIMEOUT_MS = 10_000;
// "Still alive" means answering at once; a few seconds allows for a busy 2-core machine.
const HEALTH_TIMEOUT_MS = 5_000;
// How long a server that stopped answering gets to answer again before it counts as dead.
const DEATH_WAIT_MS = 20_000;
const SLOW_MS = 2_000;
// The checks between hostile requests are not what is tested: a reset connection is tried again.
const RETRIES = 2;
// Several times what the console needs; a request that needs more is a failure, found sooner.
const SERVER_HEAP_MB = 1024;
// A server that dies is started again on the same data, so one run still shows every failure; a
// server that keeps dying ends the run.
const MAX_RESTARTS = 8;

interface Outcome {
  status: string;
  text: string;
  location?: string;
  ms: number;
}

test.describe("hostile requests", () => {
  test.describe.configure({ mode: "serial" });
  test.setTimeout(600_000);

  let server: ConsoleProcess;
  let dataDir: string;
  let serverEnv: NodeJS.ProcessEnv;
  const startConsole = () => startConsoleProcess(serverEnv, { heapMb: SERVER_HEAP_MB, startTimeoutMs: 120_000 });
  // Console requests carry the session cookie by hand: a hostile post that signs someone else in
  // (or out) must not change the session the following requests use.
  let consoleHttp: APIRequestContext;
  let apiHttp: APIRequestContext;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    dataDir = mkdtempSync(path.join(tmpdir(), "console-e2e-hostile-"));
    serverEnv = ownConsoleEnv(dataDir, PORT, {
      // Every stale session is signed in again; thousands of requests must not hit the limit.
      SIGN_IN_RATE_LIMIT_PER_MINUTE: "100000",
      SIGN_IN_ACCOUNT_RATE_LIMIT_PER_MINUTE: "100000",
    });
    server = await startConsole();
    consoleHttp = await request.newContext({ baseURL: server.url });
    apiHttp = await request.newContext({ baseURL: server.url });
  });

  test.afterAll(async () => {
    await consoleHttp?.dispose();
    await apiHttp?.dispose();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("no hostile request gets a 5xx, takes the server down or shows a stack trace", async () => {
    const origin = new URL(server.url).origin;
    const leak = leakPattern([process.cwd(), dataDir]);

    /* Signing in, and again whenever a request ended the session or the token. */
    let cookie = "";
    let bearer = "";
    let cookieStale = true;
    let bearerStale = true;
    // The first sign-in, and one more each time a hostile request ended the session.
    let signIns = 0;

    async function signIn() {
      signIns += 1;
      const response = await consoleHttp.post("/login", {
        form: { intent: "dev", email: ADMIN, redirectTo: "/" },
        headers: { "sec-fetch-site": "same-origin", cookie: "" },
        maxRedirects: 0,
        maxRetries: RETRIES,
      });
      cookie = response
        .headersArray()
        .filter((header) => header.name.toLowerCase() === "set-cookie")
        .map((header) => header.value.split(";")[0])
        .join("; ");
      expect(response.status(), "the development sign-in redirects").toBeGreaterThanOrEqual(300);
      expect(cookie, "the development sign-in sets a session cookie").not.toBe("");
      await response.dispose();
    }
    async function freshCookie() {
      if (!cookieStale) return cookie;
      if (cookie) {
        const check = await consoleHttp.get("/clients", { headers: { cookie }, maxRedirects: 0, maxRetries: RETRIES });
        const ok = check.status() === 200;
        await check.dispose();
        if (!ok) await signIn();
      } else {
        await signIn();
      }
      cookieStale = false;
      return cookie;
    }
    async function freshBearer() {
      if (!bearerStale) return bearer;
      let ok = false;
      if (bearer) {
        const check = await apiHttp.get("/v1/users/get_info", {
          headers: { authorization: `Bearer ${bearer}` },
          maxRetries: RETRIES,
        });
        ok = check.status() === 200;
        await check.dispose();
      }
      if (!ok) {
        const response = await apiHttp.post("/auth/dev", { data: { email: ADMIN }, maxRetries: RETRIES });
        expect(response.status(), "POST /auth/dev signs in").toBe(200);
        bearer = ((await response.json()) as { user_token: string }).user_token;
        await response.dispose();
      }
      bearerStale = false;
      return bearer;
    }
    async function apiGet<T>(url: string): Promise<T> {
      const response = await apiHttp.get(url, {
        headers: { authorization: `Bearer ${await freshBearer()}` },
        maxRetries: RETRIES,
      });
      expect(response.status(), `GET ${url}`).toBe(200);
      const body = (await response.json()) as T;
      await response.dispose();
      return body;
    }

    /* Real ids from the demo data, so requests get past "no such client" to the code behind. */
    const { apps } = await apiGet<{
      apps: { id: number; url_code: string; agents: { id: number; site_code: string }[] }[];
    }>("/v1/apps");
    const app = apps.find((a) => a.url_code === "northfield") ?? apps[0];
    const agent = app.agents[0];
    const { websites } = await apiGet<{ websites: { id: number }[] }>(`/v1/apps/${app.id}/websites`);
    const urls = await apiGet<{ data: { id: number }[] }>(`/v1/apps/${app.id}/urls?page_size=1`);
    const { files } = await apiGet<{ files: { id: number }[] }>(`/v1/files?app_id=${app.id}`);
    const { queues } = await apiGet<{ queues: { name: string }[] }>("/v1/jobs/queues");
    const { input_prompts: prompts } = await apiGet<{ input_prompts: { id: number }[] }>(
      `/v1/apps/${app.id}/input_prompts`,
    );
    const idOr = (value: number | string | undefined) => String(value ?? 999999);
    const consoleParams = {
      appName: app.url_code,
      urlCode: app.url_code,
      agentName: agent.site_code,
      websiteId: idOr(websites[0]?.id),
      fileId: idOr(files[0]?.id),
      queue: queues[0]?.name ?? "1",
    };
    const apiValues = {
      appId: String(app.id),
      agentId: String(agent.id),
      triggerPoint: agent.site_code,
      websiteId: idOr(websites[0]?.id),
      urlId: idOr(urls.data[0]?.id),
      queue: queues[0]?.name ?? "1",
      "files/{id}": idOr(files[0]?.id),
      "input_prompts/{id}": idOr(prompts[0]?.id),
    };

    /* What to send. */
    const build = (await import(pathToFileURL(path.resolve("build/index.js")).href)) as ServerBuild;
    const routes = consoleRoutes(build.routes, consoleParams);
    const vocabulary = consoleVocabulary(path.resolve("app"));
    // Signing out is a write like the others, but it ends the session: last, so it ends it once.
    const last = (url: string) => (/logout/.test(url) ? 1 : 0);
    const pages = routes.filter((route) => route.hasLoader).flatMap(consolePageRequests);
    const actions = routes
      .filter((route) => route.hasAction)
      .sort((a, b) => last(a.path) - last(b.path))
      .flatMap((route, i) => consoleActionRequests(route, vocabulary, i));
    const document = await apiGet<OpenApiDocument>("/v1/openapi.json");
    const targets = apiTargets(document).filter((target) => target.template !== "/v1/openapi.json");
    const apiReads = targets
      .filter((target) => target.method === "GET")
      .flatMap((target) => apiReadRequests(target, apiUrl(target, apiValues)));
    const apiWrites = targets
      .filter((target) => target.method !== "GET")
      .sort((a, b) => last(a.template) - last(b.template))
      .flatMap((target, i) => apiWriteRequests(target, apiUrl(target, apiValues), i));

    // The enumeration itself must not quietly come up short.
    expect(routes.filter((route) => route.hasAction).length, "console routes with an action").toBeGreaterThan(40);
    expect(routes.filter((route) => route.hasLoader).length, "console routes with a loader").toBeGreaterThan(60);
    expect(vocabulary.intents, "intents found in the console's sources").toEqual(
      expect.arrayContaining(["save", "add-row", "delete", "bulk", "upload"]),
    );
    expect(targets.length, "operations in the OpenAPI document").toBeGreaterThan(60);
    for (const template of ["/auth/dev", "/auth/google", "/sitemap_refresh"])
      expect(targets.map((t) => t.template)).toContain(template);

    const actionRoutes = routes.filter((route) => route.hasAction);
    console.log(
      `hostile requests to send: ${pages.length} to ${routes.filter((route) => route.hasLoader).length} console pages, ` +
        `${actions.length} to ${actionRoutes.length} console actions (${actionRoutes.filter((route) => !route.canonical).length} of them aliases), ` +
        `${apiReads.length + apiWrites.length} to ${targets.length} API operations`,
    );

    /* Sending, and checking each answer and the server after it. */
    const counts = new Map<string, number>();
    const failures: string[] = [];
    // Failures counted by kind, status and target, for the summary.
    const failureGroups = new Map<string, number>();
    const slow: string[] = [];
    const notes: string[] = [];
    // Code that took the server down or stalled it: the rest of its requests would only do it again.
    const broken = new Set<string>();
    let skipped = 0;
    let sent = 0;
    let restarts = 0;
    let stopped = "";

    const fail = (group: string, line: string) => {
      failures.push(line);
      failureGroups.set(group, (failureGroups.get(group) ?? 0) + 1);
    };

    async function fetchOnce(
      http: APIRequestContext,
      req: HostileRequest,
      headers: Record<string, string>,
    ): Promise<Outcome> {
      const started = Date.now();
      try {
        const response = await http.fetch(req.url, {
          method: req.method,
          headers,
          data: req.body,
          maxRedirects: 0,
          timeout: REQUEST_TIMEOUT_MS,
          failOnStatusCode: false,
        });
        const text = (await response.body()).toString("utf8");
        const outcome = {
          status: String(response.status()),
          text,
          location: response.headers().location,
          ms: Date.now() - started,
        };
        await response.dispose();
        return outcome;
      } catch (error) {
        return { status: "no answer", text: String((error as Error).message).split("\n")[0], ms: Date.now() - started };
      }
    }

    async function healthProblem(): Promise<string | null> {
      if (server.exited()) return "the server's process exited";
      try {
        const response = await apiHttp.get("/healthz", {
          timeout: HEALTH_TIMEOUT_MS,
          maxRedirects: 0,
          maxRetries: RETRIES,
        });
        const status = response.status();
        await response.dispose();
        return status === 200 ? null : `/healthz answered ${status}`;
      } catch (error) {
        return `/healthz did not answer: ${String((error as Error).message).split("\n")[0]}`;
      }
    }

    /** Sends one request and checks the answer and the server; false when the server broke. */
    async function send(req: HostileRequest, kind: "console" | "api"): Promise<boolean> {
      // Each on a connection of its own: a server that refuses a body before reading it closes the
      // connection, and the next request must not land on that closing socket.
      const headers: Record<string, string> = { connection: "close", ...req.headers };
      if (kind === "console") headers.cookie = await freshCookie();
      else headers.authorization = `Bearer ${await freshBearer()}`;
      const http = kind === "console" ? consoleHttp : apiHttp;
      const outcome = await fetchOnce(http, req, headers);
      sent += 1;
      counts.set(outcome.status, (counts.get(outcome.status) ?? 0) + 1);
      const what = `${req.method} ${req.url.length > 160 ? `${req.url.slice(0, 160)}…` : req.url} [${req.variant}]`;
      const snippet = outcome.text.replace(/\s+/g, " ").slice(0, 200);
      const status = Number(outcome.status);

      const group = (label: string) => `${label} ${outcome.status} ${req.target}`;
      if (outcome.status === "no answer" || status >= 500) fail(group("error"), `${outcome.status} ${what} ${snippet}`);
      const leaked = status >= 400 ? leak.exec(outcome.text) : null;
      if (leaked) fail(group("leak"), `${outcome.status} ${what} shows "${leaked[0]}" in its error: ${snippet}`);
      if (outcome.location && new URL(outcome.location, origin).origin !== origin) {
        fail(group("off-site redirect"), `${outcome.status} ${what} redirects off-site to ${outcome.location}`);
      }
      if (outcome.ms > SLOW_MS) slow.push(`${outcome.ms} ms ${outcome.status} ${what}`);
      const expected = /expect (\d{3})/.exec(req.variant)?.[1];
      if (expected && outcome.status !== expected) notes.push(`${outcome.status} (not ${expected}) ${what}`);

      if (kind === "console" && outcome.location?.startsWith("/login")) cookieStale = true;
      if (kind === "api" && status === 401) bearerStale = true;

      const problem = await healthProblem();
      if (!problem) return outcome.status !== "no answer";
      // Memory running out shows first as a server that stops answering, then as an exit; a
      // stall ends in an answer. A little while tells them apart.
      const deadline = Date.now() + DEATH_WAIT_MS;
      let still: string | null = problem;
      while (still && !server.exited() && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        still = await healthProblem();
      }
      if (!still) {
        fail(`stalled server after ${req.target}`, `server stalled after ${what}: ${problem}`);
        return false;
      }
      fail(
        `dead server after ${req.target}`,
        `server ${server.exited() ? "exited" : "hung"} after ${what}: ${problem}; it said: ${server.lastOutput()}`,
      );
      await server.kill();
      if (++restarts > MAX_RESTARTS) {
        stopped = `the server died ${restarts} times: the remaining requests were not sent`;
        return false;
      }
      server = await startConsole();
      cookieStale = bearerStale = true;
      return false;
    }

    const phases: [string, HostileRequest[], "console" | "api"][] = [
      ["console pages", pages, "console"],
      ["console actions", actions, "console"],
      ["API reads", apiReads, "api"],
      ["API writes", apiWrites, "api"],
    ];
    for (const [name, requests, kind] of phases) {
      await test.step(`${name}: ${requests.length} requests`, async () => {
        let previousTarget = "";
        for (const req of requests) {
          if (stopped || broken.has(req.family)) {
            skipped += 1;
            continue;
          }
          // A session or token checked once per route or operation, and again when an answer ended it.
          if (req.target !== previousTarget) {
            if (kind === "console") cookieStale = true;
            else bearerStale = true;
            previousTarget = req.target;
          }
          if (!(await send(req, kind))) broken.add(req.family);
        }
      });
    }

    console.log(
      `hostile requests: ${sent} sent; ${countsLine(counts)} (signed in ${signIns} times${restarts ? `, server restarted ${restarts} times` : ""})`,
    );
    if (skipped)
      console.log(
        `skipped: ${skipped} requests to code that had already taken the server down or stalled it (${[...broken].join(", ")})`,
      );
    if (slow.length)
      console.log(
        `slower than ${SLOW_MS} ms (${slow.length}):\n  ${slow
          .sort((a, b) => parseInt(b) - parseInt(a))
          .slice(0, 20)
          .join("\n  ")}`,
      );
    if (notes.length)
      console.log(`not the status the variant expects (${notes.length}):\n  ${notes.slice(0, 40).join("\n  ")}`);
    if (failures.length) {
      console.log(
        `failures by kind, status and target (${failures.length}):\n  ${[...failureGroups].map(([key, n]) => `${n} × ${key}`).join("\n  ")}`,
      );
    }

    expect(stopped, stopped).toBe("");
    expect(sent + skipped).toBe(pages.length + actions.length + apiReads.length + apiWrites.length);
    expect(failures, `${failures.length} of ${sent} hostile requests failed`).toEqual([]);
  });

  test("a body refused for its size gets its 413 while the client is still sending it", async () => {
    const origin = new URL(server.url).origin;
    const targets = [
      { path: "/login", contentType: "application/x-www-form-urlencoded" },
      { path: "/v1/clients", contentType: "application/json" },
    ];
    for (const target of targets) {
      for (const chunked of [false, true]) {
        const body = { ...target, bodyBytes: OVERSIZED_BODY_BYTES, chunked, headers: { origin } };
        const outcome = await postRawBody(server.url, body);
        const what = `${target.path}, ${chunked ? "streamed" : "declared"}`;
        expect(outcome.error, what).toBeNull();
        expect(outcome.answer, what).toMatch(/^HTTP\/1\.1 413 /);
      }
    }
  });
});
