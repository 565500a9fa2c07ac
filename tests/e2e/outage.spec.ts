import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request as forward, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { DATABASE_UNAVAILABLE } from "../../api/db/errors";
import { NOT_SAVED_JUST_NOW } from "../../app/lib/messages";
import { request as apiRequest, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiAdmin } from "./api-admin";
import { BASE_URL } from "./ports";

/**
 * A console whose API's database goes away while someone is saving, with JavaScript: the console
 * here is a client of the journeys' API (API_URL) through a relay that, while "down", answers every
 * call as the API does while its database is not answering (503, Retry-After, its message). The
 * no-JavaScript side of the same is tested in app/routes/database-outage.test.ts.
 */
// Both save the same agent's personality (one no other journey saves): one after the other.
test.describe.configure({ mode: "serial" });

let relay: Server;
let apiDown = false;
/** While set, the database goes away at the API's next write: the write and every call after it are answered as above. */
let awayFromNextWrite = false;
let consoleUrl: string;
let stopConsole: () => Promise<void>;
let dataDir: string;

/**
 * The shop agent's own personality, saved through the API before the tests: otherwise its page shows
 * the Default's, which another journey may save meanwhile, and the save here would rightly be
 * refused as changed since the page was opened.
 */
async function giveTheShopAgentItsOwnPersonality() {
  const request = await apiRequest.newContext({ baseURL: BASE_URL });
  const { headers, appId } = await apiAdmin(request, "shopharbor-outfitters");
  const control = {
    app_id: appId,
    internal_name: "ai_personality_guidelines",
    prompt_input_raw: "Speak as the shop does.",
    trigger_point: "shop",
  };
  expect((await request.put("/v1/controls", { headers, data: { app_id: appId, controls: [control] } })).ok()).toBe(
    true,
  );
  await request.dispose();
}

test.beforeAll(async () => {
  await giveTheShopAgentItsOwnPersonality();
  const api = new URL(BASE_URL);
  relay = createServer((req, res) => {
    if (awayFromNextWrite && req.method !== "GET") apiDown = true;
    if (apiDown) {
      req.resume();
      res.writeHead(503, { "content-type": "application/json", "retry-after": "5" });
      res.end(JSON.stringify({ message: DATABASE_UNAVAILABLE }));
      return;
    }
    const upstream = forward(
      { host: api.hostname, port: api.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const { startServer } = (await import(
    pathToFileURL(path.resolve("build/server/server.mjs")).href
  )) as typeof import("../../server");
  dataDir = mkdtempSync(path.join(tmpdir(), "console-e2e-outage-"));
  const started = await startServer({
    ...process.env,
    NODE_ENV: "production",
    AUTH_DEV_LOGIN: "true",
    DATA_DIR: dataDir,
    API_URL: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    PORT: "0",
    HOST: "127.0.0.1",
    SESSION_SECRET: "e2e-outage-session-secret",
  });
  consoleUrl = started.url;
  stopConsole = started.close;
});

test.afterAll(async () => {
  await stopConsole?.();
  relay?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Signs in on the relayed console and opens AI Personality with `typed` in its field, not saved yet. */
async function typeOnPersonality(page: Page, typed: string) {
  await page.goto(`${consoleUrl}/login`);
  await page.getByLabel("Email").fill("admin@example.com");
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page.getByRole("navigation", { name: "Global navigation" })).toBeVisible();
  await page.goto(`${consoleUrl}/shopharbor-outfitters/agent/shop/controls/ai-personality`);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  // The agent's own text, not the Default's that another journey may save meanwhile.
  await expect(page.getByText(/^Not saved for this trigger point yet/)).toHaveCount(0);
  await page.getByLabel("Chatbot Personality").fill(typed);
}

test("a save made while the API's data stays out of reach offers what was typed again, which goes through once it is back", async ({
  page,
}) => {
  apiDown = false;
  const typed = `Typed during an outage ${Date.now().toString(36)}\nSpeak plainly.`;
  await typeOnPersonality(page, typed);

  apiDown = true;
  await page.getByRole("button", { name: "Save", exact: true }).click();
  const notSent = page.getByRole("region", { name: "Not sent" });
  await expect(notSent.getByRole("alert")).toHaveText(NOT_SAVED_JUST_NOW);
  // The Save button went with the form: focus is on what replaced it, not on the page's body.
  await expect(notSent).toBeFocused();

  apiDown = false;
  await notSent.getByRole("button", { name: "Send it again" }).click();
  await expect(page.getByTestId("toast")).toContainText("AI Personality saved for Shop Assistant.");
  await page.reload();
  await expect(page.getByLabel("Chatbot Personality")).toHaveValue(typed);
});

test("a save whose write finds the API's data gone keeps the page and what was typed, not reading it again, and goes through once it is back", async ({
  page,
}) => {
  apiDown = false;
  const typed = `Typed before a failed write ${Date.now().toString(36)}\nBe kind.`;
  await typeOnPersonality(page, typed);

  // The database goes away as the save writes, and stays away: the save's reads went through, its
  // write does not, nor would the page's reads after it.
  awayFromNextWrite = true;
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText(NOT_SAVED_JUST_NOW)).toBeVisible();
  // The page stays (no error screen in its place, its data not read again), and so does everything typed.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("AI Personality");
  await expect(page.getByLabel("Chatbot Personality")).toHaveValue(typed);

  awayFromNextWrite = false;
  apiDown = false;
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("toast")).toContainText("AI Personality saved for Shop Assistant.");
});
