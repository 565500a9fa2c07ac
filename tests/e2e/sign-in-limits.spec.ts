/**
 * Sign-in limits and cache headers as a browser meets them, through the built server with low
 * limits of its own (the shared e2e server raises them for the journeys): failed sign-ins count
 * per account, successful ones do not, and every refusal says when to try again, on the full
 * page a form without JavaScript gets too. Signed-in pages are never cacheable.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, request, test, type APIRequestContext } from "@playwright/test";
import { ownConsoleEnv, startConsoleProcess, type ConsoleProcess } from "../support/console-process";
import { e2eDatabase, type E2eDatabase } from "./databases";
import { E2E } from "./ports";

const PER_ADDRESS = 10;
const PER_ACCOUNT = 2;

test.describe("sign-in limits", () => {
  test.describe.configure({ mode: "serial" });
  let server: ConsoleProcess;
  let dataDir: string;
  let database: E2eDatabase | undefined;
  // The admin's browser keeps its session; the other one never has one (a signed-in browser posting
  // the form is sent on by the login page's loader, whatever the action answered).
  let http: APIRequestContext;
  let signedOut: APIRequestContext;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    dataDir = mkdtempSync(path.join(tmpdir(), "console-e2e-limits-"));
    database = await e2eDatabase("limits");
    server = await startConsoleProcess(
      ownConsoleEnv(dataDir, E2E.appPort + 21, {
        DATABASE_URL: database.url,
        SIGN_IN_RATE_LIMIT_PER_MINUTE: String(PER_ADDRESS),
        SIGN_IN_ACCOUNT_RATE_LIMIT_PER_MINUTE: String(PER_ACCOUNT),
      }),
      { heapMb: 1024, startTimeoutMs: 150_000 },
    );
    const browserHeaders = { "Sec-Fetch-Site": "same-origin", Accept: "text/html" };
    http = await request.newContext({ baseURL: server.url, extraHTTPHeaders: browserHeaders });
    signedOut = await request.newContext({
      baseURL: server.url,
      extraHTTPHeaders: browserHeaders,
      storageState: { cookies: [], origins: [] },
    });
  });

  test.afterAll(async () => {
    await http?.dispose();
    await signedOut?.dispose();
    await server?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // The development sign-in form as a browser without JavaScript posts it: a document request.
  const signIn = (email: string, from = http) =>
    from.post("/login", { form: { intent: "dev", email, redirectTo: "/" }, maxRedirects: 0 });

  test("count failures per account, every attempt per address, and say when to try again on the full page", async () => {
    // The real admin signs in more often than the per-account limit: successes are no failures.
    for (let i = 0; i < PER_ACCOUNT * 3; i++) expect((await signIn("admin@example.com")).status()).toBe(302);

    const ghost = [
      await signIn("ghost@example.com", signedOut),
      await signIn("ghost@example.com", signedOut),
      await signIn("ghost@example.com", signedOut),
    ];
    expect(ghost.map((answer) => answer.status())).toEqual([403, 403, 429]);
    const locked = ghost[2];
    expect(Number(locked.headers()["retry-after"])).toBeGreaterThan(0);
    expect(locked.headers()["content-type"]).toContain("text/html");
    expect(await locked.text()).toContain("Too many sign-in attempts");

    // 6 + 3 attempts from this address so far; the tenth passes, the eleventh is refused.
    expect((await signIn("someone.else@example.com", signedOut)).status()).toBe(403);
    const overAddress = await signIn("someone.else@example.com", signedOut);
    expect(overAddress.status()).toBe(429);
    expect(Number(overAddress.headers()["retry-after"])).toBeGreaterThan(0);
  });

  test("keep signed-in pages and their data out of every cache", async () => {
    // The session of the admin's last sign-in above, kept by this request context.
    for (const address of ["/northfield", "/northfield?_data=root", "/clients"]) {
      const answer = await http.get(address, { maxRedirects: 0 });
      expect(answer.status(), address).toBe(200);
      expect(answer.headers()["cache-control"], address).toBe("private, no-store");
    }
  });
});

/**
 * A console reaching its API on another host (API_URL): the API that names the console in its
 * TRUST_PROXY counts each browser's sign-ins against its own address, not every browser's against
 * the console's one address, which a handful of people signing in at once would use up.
 */
test.describe("sign-in limits behind a console on another host", () => {
  test.describe.configure({ mode: "serial" });
  let api: ConsoleProcess;
  let consoleServer: ConsoleProcess;
  const dataDirs: string[] = [];
  let database: E2eDatabase | undefined;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const dir = () => {
      const made = mkdtempSync(path.join(tmpdir(), "console-e2e-remote-limits-"));
      dataDirs.push(made);
      return made;
    };
    database = await e2eDatabase("remote_limits");
    api = await startConsoleProcess(
      ownConsoleEnv(dir(), E2E.appPort + 24, {
        DATABASE_URL: database.url,
        SIGN_IN_RATE_LIMIT_PER_MINUTE: "2",
        TRUST_PROXY: "loopback",
      }),
      { heapMb: 1024, startTimeoutMs: 150_000 },
    );
    // The browsers' addresses reach this console as a proxy in front of it would say them.
    consoleServer = await startConsoleProcess(
      ownConsoleEnv(dir(), E2E.appPort + 25, { API_URL: api.url, TRUST_PROXY: "loopback" }),
      { heapMb: 1024, startTimeoutMs: 150_000 },
    );
  });

  test.afterAll(async () => {
    await consoleServer?.stop();
    await api?.stop();
    await database?.drop();
    for (const made of dataDirs) rmSync(made, { recursive: true, force: true });
  });

  test("count each browser's address at the API, not the console's", async () => {
    const answers = [];
    for (const address of ["198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4"]) {
      const browser = await request.newContext({
        baseURL: consoleServer.url,
        extraHTTPHeaders: { "Sec-Fetch-Site": "same-origin", Accept: "text/html", "X-Forwarded-For": address },
      });
      const answer = await browser.post("/login", {
        form: { intent: "dev", email: "admin@example.com", redirectTo: "/" },
        maxRedirects: 0,
      });
      answers.push(answer.status());
      await browser.dispose();
    }
    // Four browsers, one sign-in each, under an API limit of two a minute per address.
    expect(answers).toEqual([302, 302, 302, 302]);
  });
});
