import type { Page } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, signIn, test } from "./fixtures";

const PAGE = "/northfield/agent/admissions/integrations";
const drawer = (page: Page) => page.getByRole("dialog");
const toast = (page: Page) => page.getByTestId("toast");
const card = (page: Page, title: string) => page.getByRole("link", { name: new RegExp(`^Link Your ${title}`) });

async function hydrated(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

test.describe("with JavaScript", () => {
  test("link HubSpot: required setting flagged, saved, linked on its card, the token shown only masked", async ({ signedInPage: page }) => {
    const token = `pat-na1-${Date.now()}-secret`;
    await page.goto(PAGE);
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 2 })).toHaveText(["Agent System Integration", "Learning Management System"]);
    await expectNoSeriousAxeViolations(page);
    await card(page, "HubSpot").click();
    await expect(page).toHaveURL(/\?link=hubspot$/);
    await expect(drawer(page).getByRole("heading", { name: "Link Your HubSpot" })).toBeVisible();
    await expect(drawer(page).getByRole("link", { name: /HubSpot integration guide/ })).toHaveAttribute("target", "_blank");
    await expect(drawer(page).getByRole("navigation", { name: "Environment" }).getByRole("link", { name: "Staging" })).toHaveAttribute("aria-current", "true");
    await expectNoSeriousAxeViolations(page);

    await drawer(page).getByRole("button", { name: "Save" }).click();
    const tokenField = drawer(page).getByLabel("Private App Access Token *");
    await expect(tokenField).toHaveAttribute("aria-invalid", "true");
    await expect(drawer(page).getByText("Private App Access Token is required")).toBeVisible();
    await drawer(page).getByLabel("Contact Owner Email").fill("admissions@northfield.edu");
    await tokenField.fill(token);
    await drawer(page).getByRole("button", { name: "Save" }).click();
    await expect(toast(page)).toContainText("HubSpot linked (staging)");
    await expect(drawer(page)).toHaveCount(0);
    await expect(card(page, "HubSpot")).toContainText("Linked · staging");

    await card(page, "HubSpot").click();
    await expect(drawer(page).getByLabel("Contact Owner Email")).toHaveValue("admissions@northfield.edu");
    const shown = await drawer(page).getByLabel("Private App Access Token *").inputValue();
    expect(shown).not.toContain("secret");
    expect(shown.endsWith(token.slice(-4))).toBe(true);
    expect(await page.content()).not.toContain(token);
  });

  test("a client user can look at a link but not save it", async ({ page }) => {
    await signIn(page, "client.user@example.com");
    await page.goto(`${PAGE}?link=canvas`);
    await expect(drawer(page).getByRole("heading", { name: "Link Your Canvas" })).toBeVisible();
    await expect(drawer(page).getByRole("button", { name: "Save" })).toBeDisabled();
    await expect(drawer(page).getByText("You can view this client's integrations, but not change them.")).toBeVisible();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("open Moodle's drawer by its card, choose production, save, see it linked", async ({ signedInPage: page }) => {
    await page.goto(PAGE);
    await card(page, "Moodle").click();
    await drawer(page).getByRole("navigation", { name: "Environment" }).getByRole("link", { name: "Production" }).click();
    await expect(page).toHaveURL(/environment=production/);
    const fields = drawer(page).locator("input:not([type=hidden])");
    // Every required setting gets a value; optional ones stay blank.
    for (const input of await fields.all()) {
      if ((await input.getAttribute("aria-required")) === "true") await input.fill((await input.getAttribute("name"))!.includes("url") ? "https://moodle.northfield.edu" : "value-123456");
    }
    await drawer(page).getByRole("button", { name: "Save" }).click();
    await expect(toast(page)).toContainText("Moodle linked (production)");
    await expect(card(page, "Moodle")).toContainText("Linked · production");
  });
});
