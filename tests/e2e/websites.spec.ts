import type { Page } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, signIn, test } from "./fixtures";
import { BASE_URL } from "./ports";

const PAGE = "/northfield/agent/admissions/knowledge-store/websites";
const LIGHT_BLUE = "rgb(230, 244, 255)"; // vars.color.changed

/**
 * Tests share one server and run in parallel: each adds its own address. These are few_urls
 * websites on a reserved domain: the address itself becomes the URL list, nothing is fetched to
 * generate it. (The API refuses the bundled demo site's 127.0.0.1 address when a website is saved,
 * although its crawler may visit it.)
 */
const uniqueUrl = (label: string) =>
  `https://${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.example/programs/`;

const saveButton = (page: Page) => page.getByTestId("save-bar").getByRole("button", { name: "Save" });
/** The table row whose Urls cell holds this address. */
const rowOf = (page: Page, url: string) =>
  page.locator("tbody tr").filter({ has: page.locator(`input[value="${url}"]`) });

test.describe("with JavaScript", () => {
  test("add a website, watch it reach sitemap_generated, then Index All from the row menu; Delete URLs asks first", async ({
    signedInPage: page,
  }) => {
    const url = uniqueUrl("js");
    await page.goto(PAGE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Websites");
    await expect(page.getByRole("columnheader")).toHaveText([
      "Urls",
      "Scan Mode",
      "Status",
      "Data Tags",
      "Skip Patterns",
      "Allowed Patterns",
      "Added By",
      "Actions",
    ]);
    await expect(saveButton(page)).toBeDisabled();
    await expectNoSeriousAxeViolations(page);

    await page.getByRole("button", { name: "+ Add Website" }).click();
    await expect(page.getByLabel("Urls, row 1", { exact: true })).toBeFocused();
    // Only one blank new row at a time.
    await page.getByRole("button", { name: "+ Add Website" }).click();
    await expect(page.getByRole("button", { name: /^Discard row/ })).toHaveCount(1);

    await page.getByLabel("Urls, row 1", { exact: true }).fill(url);
    await expect(page.getByLabel("Urls, row 1", { exact: true })).toHaveCSS("background-color", LIGHT_BLUE);
    await page.getByLabel("Scan Mode, row 1", { exact: true }).selectOption("few_urls");
    await page.getByRole("group", { name: "Data Tags, row 1", exact: true }).getByLabel("Staged").check();
    await page.getByLabel("Skip Patterns, row 1", { exact: true }).fill("calendar, 2001");
    await expectNoSeriousAxeViolations(page);
    await saveButton(page).click();

    await expect(page.getByTestId("toast")).toContainText("1 website saved");
    const row = rowOf(page, url);
    await expect(row.locator("[data-status]")).toHaveText("sitemap_generated", { timeout: 15_000 });
    await expect(row.getByRole("group", { name: /Data Tags/ }).getByLabel("Staged")).toBeChecked();
    await expect(row.getByLabel(/Skip Patterns/)).toHaveValue("calendar, 2001");
    await expect(saveButton(page)).toBeDisabled();

    await row.getByLabel(`Actions for ${url}`).click();
    await row.getByRole("button", { name: "Index All" }).click();
    await expect(page.getByTestId("toast")).toContainText("Index All: 1 URL set to to_be_indexed");
    await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
    await expect(rowOf(page, url)).toHaveCount(1);

    // Delete URLs asks first, in a dialog described by its question; Cancel leaves the URLs be.
    await rowOf(page, url).getByLabel(`Actions for ${url}`).click();
    await rowOf(page, url).getByRole("button", { name: "Delete URLs" }).click();
    const question = page.getByRole("dialog", { name: "Delete URLs" });
    await expect(question).toHaveAccessibleDescription(
      `Delete all URLs of ${url}? Their chunks are removed from the knowledge store.`,
    );
    await question.getByRole("button", { name: "Cancel" }).click();
    await expect(question).toHaveCount(0);
  });

  test("an empty new row is flagged with the required-field messages", async ({ signedInPage: page }) => {
    await page.goto(PAGE);
    await page.getByRole("button", { name: "+ Add Website" }).click();
    await saveButton(page).click();
    const row = page.locator("tbody tr").first();
    await expect(row.getByText("This string is required")).toHaveCount(2);
    await expect(page.getByLabel("Urls, row 1", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Urls, row 1", { exact: true })).toBeFocused();
    await expect(page.getByTestId("save-bar")).toContainText("Fix the highlighted rows before saving.");

    // What passes the required check but not the API comes back next to its cell, nothing typed lost.
    await page.getByLabel("Urls, row 1", { exact: true }).fill("not an address");
    await page.getByLabel("Scan Mode, row 1", { exact: true }).selectOption("full_website");
    await page.getByLabel("Skip Patterns, row 1", { exact: true }).fill("news");
    await saveButton(page).click();
    await expect(row.getByText("Enter a full http(s) address")).toBeVisible();
    await expect(page.getByLabel("Skip Patterns, row 1", { exact: true })).toHaveValue("news");
    await expect(page.getByLabel("Urls, row 1", { exact: true })).toHaveValue("not an address");
    await page.getByRole("button", { name: "Discard row 1", exact: true }).click();
    await expect(saveButton(page)).toBeDisabled();
  });

  test("search, page size and the status filter live in the URL", async ({ signedInPage: page }) => {
    await page.goto(`${PAGE}?page_size=10&query=demo-site`);
    await expect(page.getByRole("searchbox", { name: "Search websites" })).toHaveValue("demo-site");
    await expect(page.getByRole("navigation", { name: "Rows per page" }).locator("[aria-current]")).toHaveText("10");
    await expect(rowOf(page, `${BASE_URL}/demo-site/`)).toHaveCount(1);
    await expect(page.getByText("1 website", { exact: true })).toBeVisible();
    // The seeded website has no sitemap differences: no red dot.
    await expect(
      rowOf(page, `${BASE_URL}/demo-site/`).getByRole("img", { name: "Sitemap differences detected" }),
    ).toHaveCount(0);

    await page.getByRole("searchbox", { name: "Search websites" }).fill("no-such-website-anywhere");
    await page.getByRole("searchbox", { name: "Search websites" }).press("Enter");
    await expect(page).toHaveURL(/query=no-such-website-anywhere/);
    await expect(page).toHaveURL(/page_size=10/);
    await expect(page.getByText("Nothing To Display")).toBeVisible();
    await expect(page.getByText("0 websites", { exact: true })).toBeVisible();

    await page.getByRole("navigation", { name: "Rows per page" }).getByRole("link", { name: "25" }).click();
    await expect(page).toHaveURL(/page_size=25/);
    await expect(page).toHaveURL(/query=no-such-website-anywhere/);

    await page.getByText("Status: All URLs").click();
    const filter = page.getByRole("list", { name: "Filter URLs by status" });
    await expect(filter.getByRole("link")).toHaveCount(16);
    // Each leads to the unified drawer, carrying the list's search so that closing it comes back here.
    const list = `list=${encodeURIComponent("query=no-such-website-anywhere")}`;
    await expect(filter.getByRole("link", { name: /^All URLs/ })).toHaveAttribute("href", `${PAGE}/urls?${list}`);
    await expect(filter.getByRole("link", { name: /^indexed/ })).toHaveAttribute(
      "href",
      `${PAGE}/urls?status=indexed&${list}`,
    );
    // Its name keeps the status and its count apart (Playwright spaces the link's flex items out).
    await expect(filter.getByRole("link", { name: /^indexed/ })).toHaveAccessibleName(/^indexed ?, \d+$/);
    await expectNoSeriousAxeViolations(page);

    // The legacy address shows the same page.
    await page.goto("/northfield/ai-training/websites?page_size=10");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Websites");
    await expect(rowOf(page, `${BASE_URL}/demo-site/`)).toHaveCount(1);
  });

  test("what is typed, picked and ticked before the page's JavaScript runs stays, as unsaved changes", async ({
    signedInPage: page,
  }) => {
    await page.goto(PAGE);
    const skip = page.getByLabel("Skip Patterns, row 1", { exact: true });
    const scanMode = page.getByLabel("Scan Mode, row 1", { exact: true });
    const staged = page.getByRole("group", { name: "Data Tags, row 1", exact: true }).getByLabel("Staged");
    const loaded = {
      skip: await skip.inputValue(),
      scanMode: await scanMode.inputValue(),
      staged: await staged.isChecked(),
    };
    const otherMode = loaded.scanMode === "few_urls" ? "full_website" : "few_urls";
    // The page's scripts (not its styles, which a click waits for) are held until the fields are
    // edited, as on a slow connection.
    let release = () => {};
    const scriptsHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/build/**/*.js", async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    await page.goto(PAGE, { waitUntil: "commit" });
    await skip.fill(`${loaded.skip}, archive`);
    await scanMode.selectOption(otherMode);
    await staged.setChecked(!loaded.staged);
    release();
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await expect(skip).toHaveValue(`${loaded.skip}, archive`);
    await expect(scanMode).toHaveValue(otherMode);
    await expect(staged).toBeChecked({ checked: !loaded.staged });
    await expect(page.getByTestId("save-bar").getByRole("status")).toHaveText("Unsaved changes");
    await expect(skip).toHaveCSS("background-color", LIGHT_BLUE);
    // React holds the text now: the row's next render keeps it.
    await skip.press("End");
    await skip.pressSequentially("s");
    await expect(skip).toHaveValue(`${loaded.skip}, archives`);
  });

  test("read-only for a Client: no add, no save, menu actions disabled but View Links", async ({ page }) => {
    await signIn(page, "client.user@example.com");
    await page.goto(PAGE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Websites");
    await expect(page.getByRole("button", { name: "+ Add Website" })).toHaveCount(0);
    await expect(saveButton(page)).toBeDisabled();
    await expect(page.getByTestId("save-bar")).toContainText(
      "You can view this client's websites, but not change them.",
    );
    const row = rowOf(page, `${BASE_URL}/demo-site/`);
    await row.getByLabel(`Actions for ${BASE_URL}/demo-site/`).click();
    await expect(row.getByRole("link", { name: "View Links" })).toBeVisible();
    for (const name of ["Index All", "Force Index", "Skip All", "Delete URLs", "Refresh Sitemap"]) {
      await expect(row.getByRole("button", { name })).toBeDisabled();
    }
    await expectNoSeriousAxeViolations(page);

    // View Links opens the website's drawer over the page (a nested route).
    await row.getByRole("link", { name: "View Links" }).click();
    await expect(page).toHaveURL(new RegExp(`${PAGE}/\\d+$`));
    await expect(page.getByRole("dialog")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Websites");
  });

  test("a drawer opened from a searched list closes back to that list, which stays searched behind it", async ({
    signedInPage: page,
  }) => {
    await page.goto(`${PAGE}?query=demo-site&page_size=10`);
    const row = rowOf(page, `${BASE_URL}/demo-site/`);
    await row.getByLabel(`Actions for ${BASE_URL}/demo-site/`).click();
    await row.getByRole("link", { name: "View Links" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    // The drawer pages on its own; the list behind keeps its search.
    await expect(page.getByRole("searchbox", { name: "Search websites" })).toHaveValue("demo-site");
    await page.getByRole("dialog").getByRole("link", { name: "Close" }).click();
    await expect(page).toHaveURL(new RegExp(`${PAGE}\\?query=demo-site&page_size=10$`));
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("add a website, then delete its URLs through the server's confirm step", async ({ signedInPage: page }) => {
    const url = uniqueUrl("nojs");
    await page.goto(PAGE);
    await page.getByRole("button", { name: "+ Add Website" }).click();
    await expect(page.getByLabel("Urls, row 1", { exact: true })).toHaveValue("");
    await page.getByLabel("Urls, row 1", { exact: true }).fill(url);
    await page.getByLabel("Scan Mode, row 1", { exact: true }).selectOption("few_urls");
    await page.getByRole("group", { name: "Data Tags, row 1", exact: true }).getByLabel("Development").check();
    await page.getByLabel("Allowed Patterns, row 1", { exact: true }).fill("/programs/");
    await saveButton(page).click();

    await expect(page.getByTestId("toast")).toContainText("1 website saved");
    const row = rowOf(page, url);
    await expect(row.getByLabel(/Allowed Patterns/)).toHaveValue("/programs/");

    await row.getByLabel(`Actions for ${url}`).click();
    await row.getByRole("button", { name: "Delete URLs" }).click();
    const confirm = page.getByRole("form", { name: "Delete URLs" });
    await expect(confirm).toContainText(`Delete all URLs of ${url}?`);
    await confirm.getByRole("button", { name: "Delete URLs" }).click();
    await expect(page.getByTestId("toast")).toContainText(/Delete URLs: \d+ URLs? set to to_be_deleted/);
  });

  test("a row without url and scan mode comes back flagged, nothing typed lost", async ({ signedInPage: page }) => {
    await page.goto(PAGE);
    await page.getByRole("button", { name: "+ Add Website" }).click();
    await page.getByLabel("Skip Patterns, row 1", { exact: true }).fill("news");
    await saveButton(page).click();
    await expect(page.locator("tbody tr").first().getByText("This string is required")).toHaveCount(2);
    await expect(page.getByLabel("Skip Patterns, row 1", { exact: true })).toHaveValue("news");
    await expect(page.getByTestId("save-bar")).toContainText("Fix the highlighted rows before saving.");
  });
});
