/**
 * An address the router cannot read (a broken percent escape) is answered by the console itself:
 * a 400 that says what is wrong, never the web framework's page, which in development mode shows
 * the stack and the server's file paths.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ownConsoleEnv, startConsoleProcess, type ConsoleProcess } from "../support/console-process";
import { E2E } from "./ports";

let server: ConsoleProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = mkdtempSync(path.join(tmpdir(), "console-e2e-address-"));
  // Development mode, where the framework's own error page shows the most; no API is needed to refuse an address.
  server = await startConsoleProcess(
    ownConsoleEnv(dataDir, E2E.appPort + 26, {
      NODE_ENV: "development",
      API_URL: `http://127.0.0.1:${E2E.appPort + 27}`,
    }),
    { heapMb: 512, startTimeoutMs: 90_000 },
  );
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("an address with a broken percent escape gets a 400 in words, without a stack or a path", async ({ request }) => {
  for (const address of ["/%E0%A4%A", "/northfield/%E0%A4%A", "/northfield/agent/%ED%A0%80/controls", "/%"]) {
    const response = await request.get(`${server.url}${address}`, { headers: { Accept: "text/html" } });
    expect(response.status(), address).toBe(400);
    const body = await response.text();
    expect(body, address).toContain("The address contains characters that are not allowed");
    expect(body, address).not.toMatch(/URIError|node_modules|\n\s+at /);
  }
});
