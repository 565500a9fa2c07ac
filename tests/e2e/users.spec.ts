import type { Page } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, SAME_ORIGIN_POST, signIn, test } from "./fixtures";

/** Tests share one server and run in parallel: every person they create is new. */
const uniqueEmail = (prefix: string) =>
  `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;

/** The spec's MM/DD/YYYY | HH:mm, with its zone said as the console's other dates say it. */
const DATE_TIME = /^\d{2}\/\d{2}\/\d{4} \| \d{2}:\d{2} UTC$/;
const LIGHT_BLUE = "rgb(230, 244, 255)"; // vars.color.changed
const LIGHT_RED = "rgb(255, 241, 240)"; // vars.color.invalid

/**
 * The column headers by their accessible names: a sortable one's arrow is drawn beside its name,
 * not read as part of it ("Email", never "Email↕"), and its link is named the same.
 */
async function expectColumnHeaders(page: Page, names: string[]) {
  const headers = page.getByRole("columnheader");
  await expect(headers).toHaveCount(names.length);
  for (const [index, name] of names.entries()) await expect(headers.nth(index)).toHaveAccessibleName(name);
  const sortLink = page.getByRole("link", { name: "Email", exact: true });
  await expect(sortLink).toBeVisible();
  expect(await sortLink.evaluate((link) => getComputedStyle(link, "::after").content)).toContain("↕");
}

const saveButton = (page: Page) => page.getByTestId("save-bar").getByRole("button", { name: "Save" });
/** The table row whose email cell holds this address. */
const rowOf = (page: Page, email: string) =>
  page.locator("tbody tr").filter({ has: page.locator(`input[value="${email}"]`) });

test.describe("with JavaScript", () => {
  test("Users: add a user; the save bar is disabled until a change and again after the save", async ({
    signedInPage: page,
  }) => {
    const email = uniqueEmail("added");
    await page.goto("/users");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Users");
    await expectColumnHeaders(page, ["Email", "Name", "Role", "Created At", "Actions"]);
    await expect(saveButton(page)).toBeDisabled();
    await expectNoSeriousAxeViolations(page);

    await page.getByRole("button", { name: "+ Add User" }).click();
    await expect(page.getByLabel("Email, row 1", { exact: true })).toBeFocused();
    await expect(page.getByLabel("Email, row 1", { exact: true })).toHaveValue("");
    await expect(saveButton(page)).toBeEnabled();
    await expect(page.getByTestId("save-bar")).toContainText("Unsaved changes");

    await page.getByLabel("Email, row 1", { exact: true }).fill(email);
    await expect(page.getByLabel("Email, row 1", { exact: true })).toHaveCSS("background-color", LIGHT_BLUE);
    await page.getByLabel("Name, row 1", { exact: true }).fill("Added Person");
    await page.getByLabel("Role, row 1", { exact: true }).selectOption({ label: "User" });
    await expectNoSeriousAxeViolations(page);
    await saveButton(page).click();

    await expect(page.getByTestId("toast")).toContainText("1 user saved");
    await expect(saveButton(page)).toBeDisabled();
    // Once saved, the row reads as text with its Edit action.
    const row = rowOf(page, email);
    await expect(row.locator("td").nth(0)).toHaveText(email);
    await expect(row.locator("td").nth(1)).toHaveText("Added Person");
    await expect(row.locator("td").nth(2)).toHaveText("User");
    await expect(row.locator("td").nth(3)).toHaveText(DATE_TIME);
    await expect(row.getByRole("button", { name: `Edit ${email}` })).toBeVisible();
    await expect(row.getByRole("textbox")).toHaveCount(0);
    await expect(page.getByTestId("save-bar")).toContainText("No unsaved changes");
  });

  test("Users: a new user saved onto another page of the sorted table leaves no row behind as not saved", async ({
    signedInPage: page,
  }) => {
    // Eleven people whose addresses sort first (descending), so this page's rows stay as they were.
    const tag = uniqueEmail("zz").split("@")[0];
    const form: Record<string, string> = { intent: "save" };
    for (let i = 0; i < 11; i++)
      Object.assign(form, {
        [`users[${i}].id`]: "",
        [`users[${i}].email`]: `zzz.${tag}.${i}@example.com`,
        [`users[${i}].name`]: `Sorted First ${i}`,
        [`users[${i}].user_type`]: "user",
      });
    const created = await page.request.post("/users", { form, headers: SAME_ORIGIN_POST, maxRedirects: 0 });
    expect(created.status()).toBe(302);

    await page.goto("/users?sort=email&order=desc");
    const email = `0.${uniqueEmail("sorted.last")}`;
    await page.getByRole("button", { name: "+ Add User" }).click();
    await page.getByLabel("Email, row 1", { exact: true }).fill(email);
    await page.getByLabel("Name, row 1", { exact: true }).fill("Sorted Last");
    await saveButton(page).click();
    await expect(page.getByTestId("toast")).toContainText("1 user saved");
    // Saved, the row is on the last page: this one starts again from what it holds.
    await expect(page.getByText("Not saved yet")).toHaveCount(0);
    await expect(page.locator("tbody input:not([type=hidden]), tbody select")).toHaveCount(0);
    await expect(page.getByTestId("save-bar")).toContainText("No unsaved changes");
    await expect(saveButton(page)).toBeDisabled();
  });

  test("Users read as a table of text: Edit opens a row, Cancel puts it back, Save keeps the change", async ({
    signedInPage: page,
  }) => {
    const email = uniqueEmail("a.rather.long.address.for.someone.in.admissions.and.records");
    await page.goto("/users");
    await page.getByRole("button", { name: "+ Add User" }).click();
    await page.getByLabel("Email, row 1", { exact: true }).fill(email);
    // A long address is never cut inside its box.
    const input = page.getByLabel("Email, row 1", { exact: true });
    expect(await input.evaluate((el: HTMLInputElement) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await page.getByLabel("Name, row 1", { exact: true }).fill("Long Address");
    await saveButton(page).click();
    await expect(page.getByTestId("toast")).toContainText("1 user saved");

    // Existing rows are text, with no inputs until one is opened; the long address wraps within the page.
    await expect(page.locator("tbody input:not([type=hidden]), tbody select")).toHaveCount(0);
    const row = rowOf(page, email);
    await expect(row.locator("td").first()).toHaveText(email);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await row.getByRole("button", { name: `Edit ${email}` }).click();
    const name = row.getByRole("textbox", { name: /^Name, row/ });
    await expect(name).toHaveValue("Long Address");
    await name.fill("Changed Then Cancelled");
    await expect(saveButton(page)).toBeEnabled();
    await row.getByRole("button", { name: `Cancel editing ${email}` }).click();
    await expect(row.locator("td").nth(1)).toHaveText("Long Address");
    await expect(saveButton(page)).toBeDisabled();

    await row.getByRole("button", { name: `Edit ${email}` }).click();
    await row.getByRole("textbox", { name: /^Name, row/ }).fill("Long Address Renamed");
    await saveButton(page).click();
    await expect(page.getByTestId("toast")).toContainText("1 user saved");
    await expect(rowOf(page, email).locator("td").nth(1)).toHaveText("Long Address Renamed");
    await expectNoSeriousAxeViolations(page);
  });

  test("Users: an empty new row gets the required-field messages; the API's own errors show by their cell", async ({
    signedInPage: page,
  }) => {
    await page.goto("/users");
    await page.getByRole("button", { name: "+ Add User" }).click();
    await saveButton(page).click();

    const row = page.locator("tbody tr").first();
    // Email and name; the Role starts as User (the spec's default user_type), so it is never empty.
    await expect(row.getByText("This string is required")).toHaveCount(2);
    await expect(page.getByLabel("Email, row 1", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Email, row 1", { exact: true })).toBeFocused();
    await expect(row.locator("td").nth(3)).toHaveCSS("background-color", LIGHT_RED);
    await expect(page.getByTestId("save-bar")).toContainText("Fix the highlighted rows before saving.");
    await expect(page.getByTestId("toast")).toHaveCount(0);

    // Fixing a cell clears its message as it is typed.
    await page.getByLabel("Name, row 1", { exact: true }).fill("Somebody");
    await expect(row.getByText("This string is required")).toHaveCount(1);

    // An address the API would refuse is said with the other problems of the row, in one attempt.
    await page.getByLabel("Name, row 1", { exact: true }).fill("");
    await page.getByLabel("Email, row 1", { exact: true }).fill("not-an-email");
    await saveButton(page).click();
    await expect(row.getByText("Enter a valid email address")).toBeVisible();
    await expect(row.getByText("This string is required")).toHaveCount(1);
    await expect(page.getByTestId("toast")).toHaveCount(0);

    // What passes the browser's checks but not the API comes back from the server next to its cell.
    await page.getByLabel("Name, row 1", { exact: true }).fill("Somebody");
    await page.getByLabel("Email, row 1", { exact: true }).fill("admin@example.com");
    await expect(row.getByText("Enter a valid email address")).toHaveCount(0);
    await page.getByLabel("Role, row 1", { exact: true }).selectOption({ label: "User" });
    await saveButton(page).click();
    await expect(row.getByText("admin@example.com belongs to another user")).toBeVisible();
    await expect(page.getByLabel("Email, row 1", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Name, row 1", { exact: true })).toHaveValue("Somebody");
    await expect(page.getByTestId("save-bar")).toContainText("Fix the highlighted rows before saving.");
    await expect(saveButton(page)).toBeEnabled();

    // Discarding the row leaves nothing to save.
    await page.getByRole("button", { name: "Discard row 1", exact: true }).click();
    await expect(saveButton(page)).toBeDisabled();
  });

  test("Access Control: add a person as Client, who can then sign in and open Northfield", async ({
    page,
    browser,
  }) => {
    const email = uniqueEmail("advisor");
    await signIn(page, "admin@example.com");
    await page.goto("/northfield/access-control");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Access Control");
    await expectColumnHeaders(page, ["Email", "Name", "Role", "Onboarded On", "Actions"]);
    await expect(saveButton(page)).toBeDisabled();
    await expectNoSeriousAxeViolations(page);

    await page.getByRole("button", { name: "+ Add User" }).click();
    await expect(page.getByLabel("Role, row 1", { exact: true })).toHaveValue("client_user");
    await expect(page.getByLabel("Role, row 1", { exact: true }).locator("option:checked")).toHaveText("Client");
    await page.getByLabel("Email, row 1", { exact: true }).fill(email);
    await page.getByLabel("Name, row 1", { exact: true }).fill("New Advisor");
    await saveButton(page).click();

    await expect(page.getByTestId("toast")).toContainText("Access saved");
    await expect(saveButton(page)).toBeDisabled();
    const row = rowOf(page, email);
    await expect(row.locator("td").nth(2)).toHaveText("Client");
    await expect(row.locator("td").nth(3)).toHaveText(DATE_TIME);

    const context = await browser.newContext();
    const newcomer = await context.newPage();
    await signIn(newcomer, email);
    await newcomer.goto("/northfield");
    await expect(newcomer.getByTestId("selected-client")).toHaveText("Northfield University");
    await expect(newcomer.getByRole("navigation", { name: "Client navigation" })).toBeVisible();
    // A Client may look at the access list but not change it.
    await newcomer.goto("/northfield/access-control");
    await expect(saveButton(newcomer)).toBeDisabled();
    await context.close();
  });

  test("the page size moved through with the keyboard applies on Enter, and keeps the focus", async ({
    signedInPage: page,
  }) => {
    await page.goto("/users");
    const size = page.getByLabel("Rows per page");
    await size.focus();
    await page.keyboard.press("ArrowDown");
    // Each arrow key only moves the choice: the page stays as it is until it is applied.
    await page.waitForTimeout(300);
    await expect(page).not.toHaveURL(/page_size=/);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/page_size=/);
    await expect(size).toBeFocused();
    // Chosen with the pointer, it applies at once.
    const chosen = await size.evaluate((select: HTMLSelectElement) => select.options[0].value);
    await size.selectOption(chosen);
    await expect(page).toHaveURL(new RegExp(`page_size=${chosen}`));
  });

  test("Access Control: removing someone asks first and applies on save", async ({ signedInPage: page, browser }) => {
    const email = uniqueEmail("leaving");
    await page.goto("/northfield/access-control");
    await page.getByRole("button", { name: "+ Add User" }).click();
    await page.getByLabel("Email, row 1", { exact: true }).fill(email);
    await page.getByLabel("Name, row 1", { exact: true }).fill("Leaving Soon");
    await saveButton(page).click();
    await expect(page.getByTestId("toast")).toContainText("Access saved");

    const remove = rowOf(page, email).getByRole("checkbox", { name: /^Remove, row/ });
    page.once("dialog", (dialog) => dialog.dismiss());
    await remove.click();
    await expect(remove).not.toBeChecked();
    await expect(saveButton(page)).toBeDisabled();

    page.once("dialog", (dialog) => {
      expect(dialog.message()).toContain(`Remove ${email}'s access to Northfield University?`);
      return dialog.accept();
    });
    await remove.click();
    await expect(remove).toBeChecked();
    await saveButton(page).click();
    await expect(page.getByTestId("toast")).toContainText("Access saved");
    await expect(rowOf(page, email)).toHaveCount(0);

    // Removed from the one client they had, the person still signs in, and is told why there is nothing.
    const context = await browser.newContext();
    const leaver = await context.newPage();
    await signIn(leaver, email);
    await leaver.goto("/");
    await expect(leaver.getByRole("status").filter({ hasText: "You have no access to any client." })).toBeVisible();
    await expect(leaver.getByRole("navigation", { name: "Client types" })).toHaveCount(0);
    expect((await leaver.goto("/northfield"))?.status()).toBe(404);
    await context.close();
  });

  test("Access Control is read-only for a Client (client_user)", async ({ page }) => {
    await signIn(page, "client.user@example.com");
    await page.goto("/northfield/access-control");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Access Control");
    await expect(page.getByRole("button", { name: "+ Add User" })).toHaveCount(0);
    await expect(saveButton(page)).toBeDisabled();
    await expect(page.getByTestId("save-bar")).toContainText("You can view who has access, but not change it.");
    // The list reads as text with no actions: nothing to edit, remove or save.
    await expect(page.locator("tbody tr").first()).toBeVisible();
    await expect(page.locator("tbody input:not([type=hidden]), tbody select")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Edit / })).toHaveCount(0);
    await expectNoSeriousAxeViolations(page);
  });

  test("Users is staff only: a client admin sees the refusal", async ({ page }) => {
    await signIn(page, "client.admin@example.com");
    const response = await page.goto("/users");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("alert")).toHaveText("You do not have permission to see this page.");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Users: '+ Add User' and Save are plain form posts", async ({ signedInPage: page }) => {
    const email = uniqueEmail("nojs");
    await page.goto("/users");
    await expect(saveButton(page)).toBeEnabled();
    await page.getByRole("button", { name: "+ Add User" }).click();
    await expect(page.getByLabel("Email, row 1", { exact: true })).toHaveValue("");

    // The server runs the required check too, and nothing typed is lost.
    await page.getByLabel("Name, row 1", { exact: true }).fill("No Script");
    await saveButton(page).click();
    await expect(page.getByLabel("Email, row 1", { exact: true })).toHaveAttribute("aria-invalid", "true");
    // Only the email is missing: the Role starts as User.
    await expect(page.locator("tbody tr").first().getByText("This string is required")).toHaveCount(1);
    await expect(page.getByLabel("Name, row 1", { exact: true })).toHaveValue("No Script");

    await page.getByLabel("Email, row 1", { exact: true }).fill(email);
    await page.getByLabel("Role, row 1", { exact: true }).selectOption({ label: "Admin" });
    await saveButton(page).click();
    await expect(page.getByTestId("toast")).toContainText("1 user saved");
    const row = rowOf(page, email);
    await expect(row.locator("td").nth(2)).toHaveText("Admin");
    await expect(row.locator("td").nth(3)).toHaveText(DATE_TIME);

    // Edit and Save are plain form posts too; other rows stay text.
    await row.getByRole("button", { name: `Edit ${email}` }).click();
    await expect(page.locator("tbody tr").filter({ has: page.getByRole("textbox") })).toHaveCount(1);
    await rowOf(page, email)
      .getByRole("textbox", { name: /^Name, row/ })
      .fill("No Script Renamed");
    await saveButton(page).click();
    await expect(page.getByTestId("toast")).toContainText("1 user saved");
    await expect(rowOf(page, email).locator("td").nth(1)).toHaveText("No Script Renamed");
  });

  test("Access Control: grant, then remove with the row's Remove checkbox", async ({ signedInPage: page }) => {
    const email = uniqueEmail("nojs.access");
    await page.goto("/northfield/access-control");
    await page.getByRole("button", { name: "+ Add User" }).click();
    await expect(page.getByLabel("Role, row 1", { exact: true })).toHaveValue("client_user");
    await page.getByLabel("Email, row 1", { exact: true }).fill(email);
    await page.getByLabel("Name, row 1", { exact: true }).fill("Plain Form");
    await saveButton(page).click();
    await expect(page.getByTestId("toast")).toContainText("Access saved");

    // Ticking Remove asks nothing without JavaScript: the save asks instead, and saves nothing yet.
    await rowOf(page, email)
      .getByRole("checkbox", { name: /^Remove, row/ })
      .check();
    await saveButton(page).click();
    const question = page.getByRole("group", { name: "Remove access" });
    await expect(question).toContainText(`Remove ${email}'s access to Northfield University?`);
    await expect(rowOf(page, email).getByRole("checkbox", { name: /^Remove, row/ })).toBeChecked();
    await question.getByRole("button", { name: "Remove access and save" }).click();
    await expect(page.getByTestId("toast")).toContainText("Access saved");
    await expect(rowOf(page, email)).toHaveCount(0);
  });
});
