import type { Page } from "@playwright/test";
import { SECRET_MASK_PREFIX } from "@contract";
import { expect, expectNoSeriousAxeViolations, signIn, test } from "./fixtures";

const PAGE = "/northfield/agent/admissions/integrations";
const READ_ONLY = "You can view this client's integrations, but not change them.";

/** Tests share one server and run in parallel: each links a system of its own, with values unique to the run. */
const unique = (label: string) => `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const drawer = (page: Page) => page.getByRole("dialog");
const toast = (page: Page) => page.getByTestId("toast");
const saveButton = (page: Page) => drawer(page).getByTestId("save-bar").getByRole("button", { name: "Save" });
/** A system's card: a link named by what it shows, 'Link Your {system}' first, then its use cases and 'Linked · …' once saved. */
const card = (page: Page, title: string) => page.getByRole("link", { name: new RegExp(`^Link Your ${title}`) });
const environmentLink = (page: Page, label: string) =>
  drawer(page).getByRole("navigation", { name: "Environment" }).getByRole("link", { name: label });

async function hydrated(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

test.describe("with JavaScript", () => {
  test("link HubSpot: required setting flagged beside it, saved with a toast, linked on its card, the token only ever masked", async ({
    signedInPage: page,
  }) => {
    const token = unique("pat-na1-secret");
    const owner = `${unique("admissions")}@northfield.edu`;
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    await page.goto(PAGE);
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Integrations");
    await expect(page.getByRole("heading", { level: 2 })).toHaveText([
      "Agent System Integration",
      "Learning Management System",
    ]);
    const crm = page.getByRole("region", { name: "Agent System Integration" });
    // The logo stands beside the system's name inside the card's link: decorative, so the link reads its name once.
    await expect(card(page, "HubSpot").locator("img")).toHaveAttribute("src", "/integrations/hubspot.svg");
    await expect(card(page, "HubSpot").locator("img")).toHaveAttribute("alt", "");
    await expect(crm.getByRole("link", { name: /^Link Your HubSpot/ })).toBeVisible();
    await expect(card(page, "HubSpot")).toContainText("Send captured leads");
    await expect(
      page.getByRole("region", { name: "Learning Management System" }).getByRole("link", { name: /^Link Your Canvas/ }),
    ).toBeVisible();
    await expectNoSeriousAxeViolations(page);

    await card(page, "HubSpot").click();
    await expect(page).toHaveURL(/\?link=hubspot$/);
    await expect(drawer(page).getByRole("heading", { name: "Link Your HubSpot" })).toBeVisible();
    const guide = drawer(page).getByRole("link", { name: /HubSpot integration guide/ });
    await expect(guide).toHaveAttribute("target", "_blank");
    await expect(guide).toHaveAttribute("rel", /noopener/);
    await expect(environmentLink(page, "Staging")).toHaveAttribute("aria-current", "true");
    const tokenField = drawer(page).getByLabel("Private App Access Token *");
    await expect(tokenField).toHaveAttribute("type", "password");
    await expect(tokenField).toHaveAttribute("autocomplete", "off");
    await expect(tokenField).toHaveAttribute("placeholder", "pat-na1-…");
    await expect(tokenField).toHaveAccessibleDescription("Needs the crm.objects.contacts.write scope.");
    await expect(saveButton(page)).toBeDisabled(); // nothing typed yet
    await expectNoSeriousAxeViolations(page);

    // The server checks required settings itself: its message comes back beside the field.
    await drawer(page).getByLabel("Contact Owner Email").fill(owner);
    await saveButton(page).click();
    await expect(tokenField).toHaveAttribute("aria-invalid", "true");
    await expect(tokenField).toHaveAccessibleDescription(/Private App Access Token is required/);
    await expect(drawer(page).getByLabel("Contact Owner Email")).toHaveValue(owner);
    await expectNoSeriousAxeViolations(page);

    // A refusal of another field keeps the typed token in the form (the page itself never carries it back).
    await tokenField.fill(token);
    await drawer(page).getByLabel("Contact Owner Email").fill(`${owner}\u0007`);
    await saveButton(page).click();
    await expect(drawer(page).getByLabel("Contact Owner Email")).toHaveAttribute("aria-invalid", "true");
    await expect(tokenField).toHaveValue(token);
    await expect(tokenField).toHaveAccessibleDescription("Needs the crm.objects.contacts.write scope.");
    await drawer(page).getByLabel("Contact Owner Email").fill(owner);
    await saveButton(page).click();
    await expect(toast(page)).toContainText("HubSpot linked (staging)");
    await expect(drawer(page)).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
    await expect(card(page, "HubSpot")).toContainText("Linked · Staging");

    // Reopened: the saved values, the token as its mask.
    await card(page, "HubSpot").click();
    await expect(drawer(page).getByLabel("Contact Owner Email")).toHaveValue(owner);
    await expect(drawer(page).getByLabel("Private App Access Token *")).toHaveValue(
      `${SECRET_MASK_PREFIX}${token.slice(-4)}`,
    );
    await expect(drawer(page).getByText(/^Linked in Staging; last saved/)).toBeVisible();

    // The page's HTML (markup and loader data) never holds the token in full.
    for (const address of [PAGE, `${PAGE}?link=hubspot`]) {
      const html = await (await page.request.get(address)).text();
      expect(html).not.toContain(token);
      if (address.includes("link=")) expect(html).toContain(`${SECRET_MASK_PREFIX}${token.slice(-4)}`);
    }
    // Server and browser render the same page (no hydration mismatch); the only failed request was the refused save.
    expect(consoleErrors.filter((text) => !text.includes("status of 400"))).toEqual([]);
  });

  test("a client user can open a drawer and see its values, but Save is disabled", async ({ page }) => {
    await signIn(page, "client.user@example.com");
    await page.goto(PAGE);
    await hydrated(page);
    await card(page, "Canvas").click();
    await expect(drawer(page).getByRole("heading", { name: "Link Your Canvas" })).toBeVisible();
    await expect(saveButton(page)).toBeDisabled();
    await expect(drawer(page).getByTestId("save-bar")).toContainText(READ_ONLY);
    await expect(drawer(page).getByLabel("Canvas URL *")).toHaveAttribute("readonly", "");
    await expectNoSeriousAxeViolations(page);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("open Moodle's drawer by its card, choose production, get the required messages, save, see it linked", async ({
    signedInPage: page,
  }) => {
    const token = unique("moodle-token");
    await page.goto(PAGE);
    await card(page, "Moodle").click();
    await expect(page).toHaveURL(/\?link=moodle$/);
    await environmentLink(page, "Production").click();
    await expect(page).toHaveURL(/link=moodle&environment=production/);
    await expect(environmentLink(page, "Production")).toHaveAttribute("aria-current", "true");

    // A token typed into a refused save comes back empty (the page never carries a secret), and says so.
    await drawer(page).getByLabel("Web Service Token *").fill(token);
    await saveButton(page).click();
    await expect(drawer(page).getByLabel("Moodle Site URL *")).toHaveAccessibleDescription(
      /Moodle Site URL is required/,
    );
    await expect(drawer(page).getByLabel("Web Service Token *")).toHaveValue("");
    await expect(drawer(page).getByLabel("Web Service Token *")).toHaveAccessibleDescription(
      /Type it again: a secret is never sent back to the page\./,
    );
    expect(await page.content()).not.toContain(token);

    await drawer(page).getByLabel("Moodle Site URL *").fill("https://moodle.northfield.edu");
    await saveButton(page).click();
    await expect(drawer(page).getByLabel("Web Service Token *")).toHaveAccessibleDescription(
      /Web Service Token is required/,
    );
    await expect(drawer(page).getByLabel("Moodle Site URL *")).toHaveValue("https://moodle.northfield.edu");

    await drawer(page).getByLabel("Web Service Token *").fill(token);
    await saveButton(page).click();
    await expect(toast(page)).toContainText("Moodle linked (production)");
    await expect(drawer(page)).toHaveCount(0);
    await expect(card(page, "Moodle")).toContainText("Linked · Production");
    await card(page, "Moodle").click();
    await environmentLink(page, "Production").click();
    await expect(drawer(page).getByLabel("Web Service Token *")).toHaveValue(`${SECRET_MASK_PREFIX}${token.slice(-4)}`);
    expect(await page.content()).not.toContain(token);
  });

  test("a client user sees the drawer with Save disabled", async ({ page }) => {
    await signIn(page, "client.user@example.com");
    await page.goto(`${PAGE}?link=blackboard`);
    await expect(drawer(page).getByRole("heading", { name: "Link Your Blackboard Learn" })).toBeVisible();
    await expect(saveButton(page)).toBeDisabled();
    await expect(drawer(page).getByTestId("save-bar")).toContainText(READ_ONLY);
  });
});
