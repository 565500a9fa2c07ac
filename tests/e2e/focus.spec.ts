import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { BASE_URL } from "./ports";

/**
 * Where keyboard focus goes as drawers, dialogs and menus close: back to what opened them, never
 * to the page's body (a keyboard or screen-reader user would start over from the top).
 */

const INTEGRATIONS = "/northfield/agent/admissions/integrations";
const DATA_MODEL = "/northfield/agent/admissions/personalization/user-profile-data-model";
const WEBSITES = "/northfield/agent/admissions/knowledge-store/websites";

async function hydrated(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

const drawer = (page: Page) => page.getByRole("dialog");
const salesforceCard = (page: Page) => page.getByRole("link", { name: /^Link Your Salesforce/ });

test.describe("closing gives focus back to the opener", () => {
  test("an Integrations card: Enter opens its drawer, Escape closes it onto the card", async ({
    signedInPage: page,
  }) => {
    await page.goto(INTEGRATIONS);
    await hydrated(page);
    await salesforceCard(page).focus();
    await page.keyboard.press("Enter");
    await expect(drawer(page)).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(drawer(page)).toHaveCount(0);
    await expect(salesforceCard(page)).toBeFocused();

    // Its Close link, and another environment chosen in the drawer first, end on the card too.
    await page.keyboard.press("Enter");
    await drawer(page)
      .getByRole("navigation", { name: "Environment" })
      .getByRole("link", { name: "Production" })
      .click();
    await expect(page).toHaveURL(/environment=production/);
    await drawer(page).getByRole("link", { name: "Close" }).click();
    await expect(drawer(page)).toHaveCount(0);
    await expect(salesforceCard(page)).toBeFocused();
  });

  test("a drawer opened by its address (a reload, a shared link) closes onto the link that opens it", async ({
    signedInPage: page,
  }) => {
    await page.goto(`${INTEGRATIONS}?link=salesforce`);
    await hydrated(page);
    await expect(drawer(page)).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(drawer(page)).toHaveCount(0);
    await expect(salesforceCard(page)).toBeFocused();
  });

  test("Data Model: Add/Edit, then Escape, ends on Add/Edit", async ({ signedInPage: page }) => {
    await page.goto(DATA_MODEL);
    await hydrated(page);
    const addEdit = page.getByRole("link", { name: "Add/Edit" });
    await addEdit.focus();
    await page.keyboard.press("Enter");
    await expect(drawer(page)).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(drawer(page)).toHaveCount(0);
    await expect(addEdit).toBeFocused();
  });

  test("a website's View Links, from its row menu: the drawer closes onto the menu", async ({ signedInPage: page }) => {
    await page.goto(WEBSITES);
    await hydrated(page);
    const menu = page.getByLabel(`Actions for ${BASE_URL}/demo-site/`);
    await menu.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("link", { name: "View Links" }).first().press("Enter");
    await expect(drawer(page)).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(drawer(page)).toHaveCount(0);
    await expect(menu).toBeFocused();
  });

  test("the profile menu: Escape closes it onto its summary; the logout question closes onto it too", async ({
    signedInPage: page,
  }) => {
    await page.goto("/northfield");
    await hydrated(page);
    const summary = page.getByLabel("Administrator, profile menu");
    const menu = page.locator("details", { has: summary });
    await summary.focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("open", "");
    await page.keyboard.press("Tab");
    await expect(menu.getByRole("link").first()).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).not.toHaveAttribute("open");
    await expect(summary).toBeFocused();

    await page.keyboard.press("Enter");
    await menu.getByRole("link", { name: "Logout" }).press("Enter");
    const question = page.getByRole("dialog", { name: "Logout" });
    await expect(question).toHaveAccessibleDescription("Are you sure you want to logout?");
    await expect(question.getByRole("button", { name: "No" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(question).toHaveCount(0);
    await expect(summary).toBeFocused();

    // No, clicked, ends there as well.
    await page.keyboard.press("Enter");
    await menu.getByRole("link", { name: "Logout" }).click();
    await question.getByRole("button", { name: "No" }).click();
    await expect(question).toHaveCount(0);
    await expect(summary).toBeFocused();
  });
});

test.describe("Tab stays in an open drawer", () => {
  test("Shift+Tab from the drawer goes round to its last control, and Tab past that to its first", async ({
    signedInPage: page,
  }) => {
    await page.goto(`${INTEGRATIONS}?link=salesforce`);
    await hydrated(page);
    await expect(drawer(page)).toBeFocused();
    const inDrawer = () => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));
    // Twenty presses either way reach past the drawer's every control: focus never leaves it.
    for (const key of ["Shift+Tab", "Tab"]) {
      for (let press = 0; press < 20; press += 1) {
        await page.keyboard.press(key);
        expect(await inDrawer(), `${key} ${press + 1}`).toBe(true);
      }
    }
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    expect(await inDrawer()).toBe(true);
    await page.keyboard.press("Escape");
    await expect(drawer(page)).toHaveCount(0);
    await expect(salesforceCard(page)).toBeFocused();
  });
});

/**
 * After a save the server refuses, focus is on what to fix: the first field it marks, or the form's
 * message when it marks none. The pressed Save is disabled while the save is out, which used to
 * drop focus to the page's body.
 */
test.describe("a refused save puts focus on what to fix", () => {
  const saveButton = (page: Page) => page.getByTestId("save-bar").getByRole("button", { name: "Save" });

  test("Integrations: the first required setting left empty", async ({ signedInPage: page }) => {
    await page.goto(`${INTEGRATIONS}?link=salesforce`);
    await hydrated(page);
    await drawer(page).getByLabel("Name").fill("Salesforce for admissions");
    await saveButton(page).click();
    const firstRequired = drawer(page).locator('input[aria-required="true"]').first();
    await expect(firstRequired).toHaveAttribute("aria-invalid", "true");
    await expect(firstRequired).toBeFocused();
  });

  test("Integrations: the form's message, when the refusal is about no one field", async ({ signedInPage: page }) => {
    await page.goto(`${INTEGRATIONS}?link=salesforce`);
    await hydrated(page);
    await drawer(page).getByLabel("Name").fill("Salesforce for admissions");
    // A page older than the catalogue: the environment it posts is no longer offered. The post is
    // rewritten on its way out; the form's hidden field is React's, and any render puts it back.
    await page.route(
      (url) => url.pathname === INTEGRATIONS,
      (route) => {
        const body = route.request().postData();
        if (route.request().method() !== "POST" || !body) return route.continue();
        const form = new URLSearchParams(body);
        form.set("environment", "retired");
        return route.continue({ postData: form.toString() });
      },
    );
    await saveButton(page).click();
    const message = page.getByTestId("save-bar").getByRole("status");
    await expect(message).toHaveText("Choose staging or production.");
    await expect(drawer(page).locator('[aria-invalid="true"]')).toHaveCount(0);
    await expect(message).toBeFocused();
  });

  test("Data Model: a field name longer than the API takes", async ({ signedInPage: page }) => {
    await page.goto(`${DATA_MODEL}?edit=1`);
    await hydrated(page);
    await drawer(page).getByRole("button", { name: "+ Add Field" }).click();
    await page.getByLabel("Group, row 1", { exact: true }).selectOption("Learning Interests");
    await page.getByLabel("Field Name, row 1", { exact: true }).fill("x".repeat(150));
    await page.getByLabel("Definition, row 1", { exact: true }).fill("Far too long a name");
    await page.getByLabel("Type, row 1", { exact: true }).selectOption("text");
    await saveButton(page).click();
    const name = page.getByLabel("Field Name, row 1", { exact: true });
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toBeFocused();
  });

  test("Appearance: the first setting out of its range", async ({ signedInPage: page }) => {
    await page.goto("/northfield/agent/studentsuccess/appearance");
    await hydrated(page);
    await page.getByLabel("Font Size (px)", { exact: true }).fill("99");
    await saveButton(page).click();
    const fontSize = page.getByLabel("Font Size (px)", { exact: true });
    await expect(fontSize).toHaveAttribute("aria-invalid", "true");
    await expect(fontSize).toBeFocused();
    // A field's messages each take a line (joined by a line break), not one run-on line.
    const errorId = (await fontSize.getAttribute("aria-describedby"))!.split(" ").find((id) => id.endsWith("-error"))!;
    await expect(page.locator(`[id="${errorId}"]`)).toHaveCSS("white-space", "pre-line");
  });

  test("Access Control: a new row for someone who already has access", async ({ signedInPage: page }) => {
    await page.goto("/northfield/access-control?page_size=100");
    await hydrated(page);
    await page.getByRole("button", { name: "+ Add User" }).click();
    await page.getByLabel("Email, row 1", { exact: true }).fill("client.admin@example.com");
    await page.getByLabel("Name, row 1", { exact: true }).fill("Twice");
    await saveButton(page).click();
    const email = page.getByLabel("Email, row 1", { exact: true });
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toBeFocused();
  });
});
