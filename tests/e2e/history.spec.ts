import type { Page } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, SAME_ORIGIN_POST, test } from "./fixtures";

/*
 * The client's History screen: a change made in AI Personality shows with its diff, the list
 * filters by kind and person, and a recorded state is restored, with JavaScript and without.
 * Tests share one server and run in parallel: each edits its own trigger point's personality with
 * texts unique to it, and finds its rows by those texts.
 */
const unique = (label: string) => `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const toast = (page: Page) => page.getByTestId("toast");

async function savePersonality(page: Page, path: string, text: string) {
  await page.goto(path);
  await page.getByLabel("Chatbot Personality").fill(text);
  await page.getByTestId("save-bar").getByRole("button", { name: "Save" }).click();
  await expect(toast(page)).toContainText("AI Personality saved for");
}

/** The history row of the save that wrote `text` (its diff's new value). */
const rowThatWrote = (page: Page, text: string) => page.locator("tbody tr", { has: page.locator("ins", { hasText: text }) });

async function saveTwiceThenRestoreTheFirst(page: Page, path: string, triggerPointName: string) {
  const first = unique("Speak plainly");
  const second = unique("Speak warmly");
  await savePersonality(page, path, first);
  await savePersonality(page, path, second);

  await page.goto("/northfield/history?kind=controls");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("History");
  const latest = rowThatWrote(page, second);
  await expect(latest).toHaveCount(1);
  await expect(latest.getByRole("cell").nth(1)).toHaveText("admin@example.com");
  await expect(latest.getByRole("cell").nth(2)).toHaveText("Controls");
  // The diff opens from the summary (a <details>): the old text struck, the new one beside it.
  await expect(latest.locator("summary")).toHaveText(`Chatbot Personality of ${triggerPointName} changed`);
  await latest.locator("summary").click();
  await expect(latest.locator("del", { hasText: first })).toBeVisible();
  await expect(latest.locator("ins", { hasText: second })).toBeVisible();

  await rowThatWrote(page, first).first().getByRole("button", { name: /Restore this state/ }).click();
  await expect(toast(page)).toContainText(`Restored the controls of ${triggerPointName} to the state of`);
  await expect(page).toHaveURL(/\/northfield\/history\?kind=controls$/);
  await page.goto(path);
  await expect(page.getByLabel("Chatbot Personality")).toHaveValue(first);
}

test.describe("with JavaScript", () => {
  test("a change made in AI Personality shows with its diff, and its state is restored", async ({ signedInPage: page }) => {
    await saveTwiceThenRestoreTheFirst(page, "/northfield/controls/ai-personality", "Default");
    await page.goto("/northfield/history?kind=controls");
    await expectNoSeriousAxeViolations(page);
  });

  test("filters by kind and person through the address; the client navigation links the screen", async ({ signedInPage: page }) => {
    await page.goto("/northfield");
    await page.getByRole("navigation", { name: "Client navigation" }).getByRole("link", { name: "History" }).click();
    await expect(page).toHaveURL(/\/northfield\/history$/);

    await page.getByLabel("Kind").selectOption("controls");
    await page.getByLabel("Person").fill("admin@example.com");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/\?kind=controls&user=admin%40example\.com$/);
    const kinds = await page.locator("tbody tr").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-kind")));
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set(["controls"]));
    const who = await page.locator("tbody tr td:nth-child(2)").allTextContents();
    expect(new Set(who)).toEqual(new Set(["admin@example.com"]));

    await page.getByRole("link", { name: "Show every change" }).click();
    await expect(page).toHaveURL(/\/northfield\/history$/);
    await expect(page.getByLabel("Kind")).toHaveValue("");
  });

  test("a client user reads the history without a restore button", async ({ page }) => {
    await page.request.post("/login", {
      form: { intent: "dev", email: "client.user@example.com", redirectTo: "/" }, headers: SAME_ORIGIN_POST,
    });
    await page.goto("/northfield/history");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("History");
    await expect(page.getByRole("button", { name: /Restore this state/ })).toHaveCount(0);
    // Posted as the page's own form would be, so that the refusal is the read-only Client's.
    const refused = await page.request.post("/northfield/history", { form: { intent: "restore", id: "1" }, headers: SAME_ORIGIN_POST });
    expect(refused.status()).toBe(403);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the diff opens and a state is restored with plain form posts", async ({ signedInPage: page }) => {
    await saveTwiceThenRestoreTheFirst(page, "/northfield/agent/admissions/controls/ai-personality", "admissions");
  });
});
