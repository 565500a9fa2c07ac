import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, SAME_ORIGIN_POST, test } from "./fixtures";
import { apiAdmin } from "./api-admin";

/*
 * The client's History screen: a change made in AI Personality shows what it did, the list
 * filters by kind and person, a recorded state is restored, and a No-Go topic saved reads as that
 * topic added and is reverted, with JavaScript and without. Tests share one server and run in
 * parallel: each edits its own trigger point (a revert writes a trigger point's controls back
 * whole, so the revert tests make an agent of their own) with texts unique to it, and finds its
 * rows by those texts.
 */
const unique = (label: string) => `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const toast = (page: Page) => page.getByTestId("toast");

async function savePersonality(page: Page, path: string, text: string) {
  await page.goto(path);
  await page.getByLabel("Chatbot Personality").fill(text);
  await page.getByTestId("save-bar").getByRole("button", { name: "Save" }).click();
  await expect(toast(page)).toContainText("AI Personality saved for");
}

/** The history row of the save that wrote `text`: its line's new value, or the text shown under a line that says a long text changed. */
const rowThatWrote = (page: Page, text: string) =>
  page.locator("tbody tr").filter({
    has: page
      .locator("li")
      .filter({ hasText: new RegExp(`→ '${text}'$`) })
      .or(page.locator("ins", { hasText: text })),
  });
/** The history row one of whose lines reads exactly `line` (found while its <details> is closed too). */
const rowWithLine = (page: Page, line: string) =>
  page.locator("tbody tr", { has: page.locator("li").getByText(line, { exact: true }) });

async function saveTwiceThenRestoreTheFirst(page: Page, path: string, agentName: string) {
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
  // What it did opens from the summary (a <details>), under the screen's names: the old text and the new.
  await expect(latest.locator("summary")).toHaveText(`Chatbot Personality of ${agentName} changed`);
  await latest.locator("summary").click();
  await expect(latest.getByRole("listitem")).toHaveText([
    `AI Personality of ${agentName}: Chatbot Personality '${first}' → '${second}'`,
  ]);
  await expect(latest.getByRole("listitem")).toBeVisible();

  // A later change was made to the same controls, so restoring asks first, saying that it goes too.
  await rowThatWrote(page, first)
    .first()
    .getByRole("link", { name: /Restore this state/ })
    .click();
  const question = page.getByRole("form", { name: "Restore this state" });
  await expect(question).toContainText(/made to it since (is|are) undone too\./);
  await question.getByRole("button", { name: "Restore" }).click();
  await expect(toast(page)).toContainText(`Restored the controls of ${agentName} to the state of`);
  await expect(page).toHaveURL(/\/northfield\/history\?kind=controls$/);
  await page.goto(path);
  await expect(page.getByLabel("Chatbot Personality")).toHaveValue(first);
}

/** The topics of a topic list's rows, in order ('' for an empty row). */
const topicsOnPage = (page: Page) =>
  page
    .getByRole("textbox", { name: /^Topic, row \d+$/ })
    .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));

/** An agent of Northfield made through the API, so that its trigger point is this test's alone. */
async function createAgent(request: APIRequestContext, name: string, siteCode: string) {
  const { headers, appId } = await apiAdmin(request);
  const created = await request.post(`/v1/apps/${appId}/agents/update_agents`, {
    headers,
    data: { app_id: appId, name, site_code: siteCode },
  });
  expect(created.status()).toBe(200);
}

/**
 * One No-Go topic saved on an agent's own list reads in History as that topic added, under the
 * agent's name; Revert this change takes it off the list, and the revert reads as it removed.
 */
async function saveNoGoTopicThenRevert(page: Page, javaScript: boolean) {
  const code = unique("desk").replace(/[^A-Za-z0-9]/g, "");
  const agentName = `Parking Desk ${code}`;
  await createAgent(page.request, agentName, code);
  const topic = unique("parking permits");
  const reply = "Please ask campus security.";
  const noGoPage = `/northfield/agent/${code}/controls/no-go-topics`;
  await page.goto(noGoPage);
  const row = (await topicsOnPage(page)).indexOf("") + 1;
  await page.getByRole("textbox", { name: `Topic, row ${row}`, exact: true }).fill(topic);
  await page.getByRole("textbox", { name: `Canned Response, row ${row}`, exact: true }).fill(reply);
  await page.getByTestId("save-bar").getByRole("button", { name: "Save" }).click();
  await expect(toast(page)).toContainText(`No-Go Topics saved for ${agentName}.`);

  await page.goto("/northfield/history?kind=controls");
  const added = `No-Go Topics of ${agentName}: added '${topic}' (Canned Response: '${reply}')`;
  const saved = rowWithLine(page, added);
  await expect(saved).toHaveCount(1);
  await saved.locator("summary").click();
  // That line alone: no other control of the trigger point, no id, stored name or metadata path.
  await expect(saved.getByRole("listitem")).toHaveText([added]);
  await expect(saved.getByRole("listitem")).toBeVisible();

  await saved.getByRole("button", { name: /Revert this change/ }).click();
  await expect(toast(page)).toContainText(`Reverted the controls of ${agentName} to the state before the change of`);
  // With JavaScript the page is not loaded anew: the button, now a link that asks first (the revert
  // is a later change), keeps the focus it had.
  if (javaScript) await expect(saved.getByRole("link", { name: /Revert this change/ })).toBeFocused();
  await expect(page).toHaveURL(/\/northfield\/history\?kind=controls$/);
  const reverted = rowWithLine(page, `No-Go Topics of ${agentName}: removed '${topic}' (Canned Response: '${reply}')`);
  await expect(reverted).toHaveCount(1);
  await expect(reverted.locator("summary")).toHaveText(/^Reverted the controls of/);

  await page.goto(noGoPage);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("No-Go Topics");
  expect(await topicsOnPage(page)).not.toContain(topic);
}

test.describe("with JavaScript", () => {
  test("a change made in AI Personality shows what it did, and its state is restored", async ({
    signedInPage: page,
  }) => {
    await saveTwiceThenRestoreTheFirst(page, "/northfield/controls/ai-personality", "Default");
    await page.goto("/northfield/history?kind=controls");
    await expectNoSeriousAxeViolations(page);
  });

  test("a No-Go topic saved reads as that topic added, and Revert this change takes it back", async ({
    signedInPage: page,
  }) => {
    await saveNoGoTopicThenRevert(page, true);
    await expectNoSeriousAxeViolations(page);
  });

  test("filters by kind and person through the address; the client navigation links the screen", async ({
    signedInPage: page,
  }) => {
    await page.goto("/northfield");
    await page.getByRole("navigation", { name: "Client navigation" }).getByRole("link", { name: "History" }).click();
    await expect(page).toHaveURL(/\/northfield\/history$/);

    await page.getByLabel("Kind").selectOption("controls");
    await page.getByLabel("Person").fill("admin@example.com");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/\?kind=controls&user=admin%40example\.com&page_size=10$/);
    // The address changes as the navigation commits; the table may render a moment later, so
    // these assertions retry rather than read the rows once.
    await expect(page.locator('tbody tr[data-kind="controls"]').first()).toBeVisible();
    await expect(page.locator('tbody tr:not([data-kind="controls"])')).toHaveCount(0);
    await expect
      .poll(async () => new Set(await page.locator("tbody tr td:nth-child(2)").allTextContents()))
      .toEqual(new Set(["admin@example.com"]));

    await page.getByRole("link", { name: "Show every change" }).click();
    await expect(page).toHaveURL(/\/northfield\/history$/);
    await expect(page.getByLabel("Kind")).toHaveValue("");
  });

  test("a client user reads the history without a restore button", async ({ page }) => {
    await page.request.post("/login", {
      form: { intent: "dev", email: "client.user@example.com", redirectTo: "/" },
      headers: SAME_ORIGIN_POST,
    });
    await page.goto("/northfield/history");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("History");
    await expect(page.getByRole("button", { name: /Restore this state|Revert this change/ })).toHaveCount(0);
    // Posted as the page's own form would be, so that the refusal is the read-only Client's.
    for (const intent of ["restore", "revert"]) {
      const refused = await page.request.post("/northfield/history", {
        form: { intent, id: "1" },
        headers: SAME_ORIGIN_POST,
      });
      expect(refused.status()).toBe(403);
    }
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("what a change did opens and a state is restored with plain form posts", async ({ signedInPage: page }) => {
    await saveTwiceThenRestoreTheFirst(
      page,
      "/northfield/agent/admissions/controls/ai-personality",
      "Admissions Assistant",
    );
  });

  test("a No-Go topic saved reads as that topic added, and is reverted, with plain form posts", async ({
    signedInPage: page,
  }) => {
    await saveNoGoTopicThenRevert(page, false);
  });
});
