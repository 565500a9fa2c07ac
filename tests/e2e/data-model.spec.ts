import type { Page } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, signIn, test } from "./fixtures";
import { apiAdmin } from "./api-admin";

const USER_MODEL = "/northfield/agent/admissions/personalization/user-profile-data-model";
const PROGRAM_MODEL = "/northfield/agent/admissions/knowledge-store/program-data-model";

/** Tests share one server and run in parallel: every field name is unique to its test. */
const unique = (label: string) => `${label}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const drawer = (page: Page) => page.getByRole("dialog");
const saveButton = (page: Page) => drawer(page).getByTestId("save-bar").getByRole("button", { name: "Save" });
const toast = (page: Page) => page.getByTestId("toast");
const jsonView = (page: Page) => page.getByLabel(/data model as JSON$/);
/** The drawer's row whose Field Name holds this name. */
declare global {
  interface Window {
    focusWhenAlertAppeared?: string | null;
  }
}

/** Notes the accessible label of what has focus when an alert is first drawn in the drawer, before any later effect runs. */
function watchFocusWhenAlertAppears() {
  window.focusWhenAlertAppeared = undefined;
  const observer = new MutationObserver(() => {
    if (!document.querySelector('[role="dialog"] [role="alert"]')) return;
    window.focusWhenAlertAppeared = document.activeElement?.getAttribute("aria-label") ?? null;
    observer.disconnect();
  });
  observer.observe(document.body, { childList: true, subtree: true });
}

const fieldRow = (page: Page, name: string) =>
  drawer(page)
    .locator("tbody tr")
    .filter({ has: page.locator(`input[value="${name}"]`) });

/** Waits until React owns the page, so clicks run the browser-side code rather than plain form posts. */
async function hydrated(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

test.describe("with JavaScript", () => {
  test("user profile: add fields in the drawer, required checks, JSON view grouped, Confirm Delete", async ({
    signedInPage: page,
  }) => {
    const major = unique("minor_subject");
    const budget = unique("budget");
    await page.goto(USER_MODEL);
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Manage User Profile Data Model");
    await page.getByRole("link", { name: "Add/Edit" }).click();
    await expect(page).toHaveURL(/\?edit=1$/);
    await expect(drawer(page).getByRole("heading", { name: "Edit the user profile data model" })).toBeVisible();
    await expect(drawer(page).getByRole("columnheader")).toHaveText([
      "Group",
      "Field Name",
      "Definition",
      "Type",
      "Actions",
    ]);
    await expectNoSeriousAxeViolations(page);

    // A new row without name, type and group is flagged beside each cell; nothing is sent.
    await drawer(page).getByRole("button", { name: "+ Add Field" }).click();
    await expect(page.getByLabel("Group, row 1", { exact: true })).toBeFocused();
    await page.getByLabel("Definition, row 1", { exact: true }).fill("A second subject the student likes");
    await saveButton(page).click();
    await expect(drawer(page).getByText("Fix the highlighted rows before saving.")).toBeVisible();
    await expect(page.getByLabel("Field Name, row 1", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Type, row 1", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Definition, row 1", { exact: true })).toHaveValue(
      "A second subject the student likes",
    );

    // A name the API would refuse is said with the row's other problems, in the same attempt.
    await page.getByLabel("Field Name, row 1", { exact: true }).fill("2nd subject");
    await saveButton(page).click();
    await expect(drawer(page).getByText("Start with a letter; use letters, digits, spaces and _ only")).toBeVisible();
    await expect(page.getByLabel("Type, row 1", { exact: true })).toHaveAttribute("aria-invalid", "true");

    await page.getByLabel("Group, row 1", { exact: true }).selectOption("Learning Interests");
    await page.getByLabel("Field Name, row 1", { exact: true }).fill(major);
    await expect(drawer(page).getByText("Start with a letter; use letters, digits, spaces and _ only")).toHaveCount(0);
    await page.getByLabel("Type, row 1", { exact: true }).selectOption("text");
    await drawer(page).getByRole("button", { name: "+ Add Field" }).click();
    await page.getByLabel("Group, row 1", { exact: true }).selectOption("Budgets & Financials");
    await page.getByLabel("Field Name, row 1", { exact: true }).fill(budget);
    await page.getByLabel("Type, row 1", { exact: true }).selectOption("number");
    await saveButton(page).click();
    await expect(toast(page)).toContainText("2 fields saved");
    await expect(drawer(page)).toHaveCount(0);

    // The JSON view groups fields by group.
    const json = JSON.parse((await jsonView(page).textContent()) ?? "{}");
    expect(json["Learning Interests"][major]).toEqual({
      type: "text",
      definition: "A second subject the student likes",
    });
    expect(json["Budgets & Financials"][budget]).toEqual({ type: "number" });

    // Delete asks 'Confirm Delete' first; Cancel keeps the field. What is typed in another row, not
    // saved yet, stays through the question and the deletion.
    await page.getByRole("link", { name: "Add/Edit" }).click();
    const typed = "A second subject, typed and not saved yet";
    await fieldRow(page, major)
      .getByRole("textbox", { name: /^Definition, row/ })
      .fill(typed);
    await fieldRow(page, budget)
      .getByRole("button", { name: `Delete field ${budget}` })
      .click();
    await expect(drawer(page).getByRole("alert")).toContainText(`Confirm Delete: the field “${budget}”`);
    await drawer(page).getByRole("button", { name: "Cancel", exact: true }).click();
    await expect(drawer(page).getByRole("alert")).toHaveCount(0);
    // The answered question is gone: focus goes back to the row's Delete button, not to the page's top.
    await expect(fieldRow(page, budget).getByRole("button", { name: `Delete field ${budget}` })).toBeFocused();
    await expect(fieldRow(page, major).getByRole("textbox", { name: /^Definition, row/ })).toHaveValue(typed);
    // Escape answers the question as Cancel does: the drawer and what is typed in it stay. Focus is in
    // the question the moment it is drawn, so an Escape pressed at once answers it, not the drawer.
    await page.evaluate(watchFocusWhenAlertAppears);
    await fieldRow(page, budget)
      .getByRole("button", { name: `Delete field ${budget}` })
      .click();
    await expect.poll(() => page.evaluate(() => window.focusWhenAlertAppeared)).toBe("Confirm Delete");
    await expect(drawer(page).getByRole("alert")).toContainText(`Confirm Delete: the field “${budget}”`);
    await page.keyboard.press("Escape");
    await expect(drawer(page).getByRole("alert")).toHaveCount(0);
    await expect(page).toHaveURL(/\?edit=1/);
    await expect(fieldRow(page, major).getByRole("textbox", { name: /^Definition, row/ })).toHaveValue(typed);
    await fieldRow(page, budget)
      .getByRole("button", { name: `Delete field ${budget}` })
      .click();
    await drawer(page).getByRole("button", { name: "Delete field", exact: true }).click();
    await expect(drawer(page).getByRole("status").filter({ hasText: "Deleted" })).toContainText(`Deleted ${budget}`);
    await expect(drawer(page).getByRole("status").filter({ hasText: "Deleted" })).toBeFocused();
    await expect(fieldRow(page, budget)).toHaveCount(0);
    await expect(fieldRow(page, major).getByRole("textbox", { name: /^Definition, row/ })).toHaveValue(typed);
  });

  test("program model: the knowledge store and personalization pages edit one model; Build Recommendation Model runs to the end", async ({
    signedInPage: page,
  }) => {
    const field = unique("intake_size");
    await page.goto(`${PROGRAM_MODEL}?edit=1`);
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Program Data Model");
    await drawer(page).getByRole("button", { name: "+ Add Field" }).click();
    await page.getByLabel("Group, row 1", { exact: true }).selectOption("Program Structure");
    await page.getByLabel("Field Name, row 1", { exact: true }).fill(field);
    await page.getByLabel("Definition, row 1", { exact: true }).fill("How many students the program admits each fall");
    await page.getByLabel("Type, row 1", { exact: true }).selectOption("number");
    await saveButton(page).click();
    await expect(toast(page)).toContainText("1 field saved");

    await page.goto("/northfield/agent/admissions/personalization/program-profile-data-model");
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Manage Program Profile Data Model");
    await expect(jsonView(page)).toContainText(field);
    await expect(page.getByText("Building the recommendation model might take some time.")).toBeVisible();
    await page.getByRole("button", { name: "Build Recommendation Model" }).click();
    await expect(toast(page)).toContainText("might take some time");
    // The page follows the build until it ends.
    await expect(page.getByRole("status").filter({ hasText: /^Built / })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole("button", { name: "Build Recommendation Model" })).toBeEnabled();
  });

  test("Import copies another client's model after the warning; no choice is said by the field", async ({
    signedInPage: page,
  }) => {
    const shop = "/shopharbor-outfitters/agent/shop/personalization/program-profile-data-model";
    await page.goto(shop);
    await hydrated(page);
    await page.getByRole("link", { name: "Import" }).click();
    const form = page.getByRole("form", { name: "Import a program profile data model" });
    await expect(form.getByRole("alert")).toHaveText("This will overwrite existing data.");
    await expectNoSeriousAxeViolations(page);
    await form.getByRole("button", { name: "Import" }).click();
    await expect(form.getByText("Choose the client to import from")).toBeVisible();
    await form.getByLabel("Import from").selectOption("northfield");
    await form.getByRole("button", { name: "Import" }).click();
    await expect(toast(page)).toContainText(/Imported \d+ fields? from Northfield University/);
    await expect(jsonView(page)).toContainText("duration_years");
  });

  test("Confirm Delete keeps a long field name inside its box", async ({ signedInPage: page, request }) => {
    const { headers, appId } = await apiAdmin(request);
    // A hundred characters without a space: the longest name the API takes.
    const long = unique("Verylong".repeat(11)).slice(0, 100);
    const created = await request.post(`/v1/apps/${appId}/personalisation_config_details/create_and_update`, {
      headers,
      data: {
        personalisation_config_details: [
          { name: long, field_type: "text", group: "Others", model_type: "user_profile" },
        ],
      },
    });
    expect(created.status()).toBe(200);
    await page.goto(`${USER_MODEL}?edit=1`);
    await hydrated(page);
    await drawer(page)
      .getByRole("button", { name: `Delete field ${long}` })
      .click();
    const question = drawer(page).getByRole("alert").filter({ hasText: "Confirm Delete" });
    await expect(question).toContainText(long);
    const box = await question.evaluate((p) => ({ scroll: p.scrollWidth, client: p.clientWidth }));
    expect(box.scroll).toBeLessThanOrEqual(box.client);
    await drawer(page).getByRole("button", { name: "Delete field", exact: true }).click();
    await expect(fieldRow(page, long)).toHaveCount(0);
  });

  test("a client admin of one client is offered no Import, which has no other client to copy from", async ({
    page,
  }) => {
    await signIn(page, "client.admin@example.com");
    await page.goto(USER_MODEL);
    await expect(page.getByRole("link", { name: "Add/Edit" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Import" })).toHaveCount(0);
    await page.goto(`${USER_MODEL}?import=1`);
    await expect(page.getByRole("form", { name: "Import a user profile data model" })).toHaveCount(0);
  });

  test("a client user sees the fields but cannot change them", async ({ page }) => {
    await signIn(page, "client.user@example.com");
    await page.goto(USER_MODEL);
    await expect(page.getByRole("link", { name: "Import" })).toHaveCount(0);
    await page.getByRole("link", { name: "View Fields" }).click();
    await expect(drawer(page).getByRole("heading", { name: "Fields of the user profile data model" })).toBeVisible();
    await expect(saveButton(page)).toBeDisabled();
    await expect(
      drawer(page).getByText("You can view this client's user profile data model, but not change it."),
    ).toBeVisible();
    await expect(drawer(page).getByRole("button", { name: "+ Add Field" })).toHaveCount(0);
    await expect(drawer(page).getByRole("button", { name: /^Delete field/ })).toHaveCount(0);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the drawer opens by its link; rows are added, saved and deleted through plain forms", async ({
    signedInPage: page,
  }) => {
    const field = unique("preferred_campus");
    await page.goto("/northfield/user-profiling/student-profile-data-model");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Manage Student Profile Data Model");
    await page.getByRole("link", { name: "Add/Edit" }).click();
    await drawer(page).getByRole("button", { name: "+ Add Field" }).click();
    await page.getByLabel("Group, row 1", { exact: true }).selectOption("Communication Preferences");
    await page.getByLabel("Field Name, row 1", { exact: true }).fill(field);
    // Without a type the server flags the row and keeps what was typed.
    await saveButton(page).click();
    await expect(page.getByLabel("Type, row 1", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Field Name, row 1", { exact: true })).toHaveValue(field);
    await page.getByLabel("Type, row 1", { exact: true }).selectOption("text");
    await saveButton(page).click();
    await expect(toast(page)).toContainText("1 field saved");
    await expect(jsonView(page)).toContainText(field);

    await page.getByRole("link", { name: "Add/Edit" }).click();
    await fieldRow(page, field)
      .getByRole("button", { name: `Delete field ${field}` })
      .click();
    await drawer(page).getByRole("button", { name: "Delete field", exact: true }).click();
    await expect(drawer(page).getByRole("status").filter({ hasText: "Deleted" })).toContainText(`Deleted ${field}`);
    await expect(fieldRow(page, field)).toHaveCount(0);
  });
});
