import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/*
 * How the screens are laid out, measured in the browser: the navigation column beside long pages,
 * the test question form's fields, the CSV card, an empty search and a test run's facts. Layout
 * is CSS and server-rendered markup, so each check runs with JavaScript and without.
 */
const SCREEN = "/northfield/agent/studentsuccess/controls/test-questions";
const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** Within a pixel: boxes sit on half pixels, page heights on whole ones. */
const expectNear = (actual: number, expected: number, what: string) =>
  expect(Math.abs(actual - expected), `${what}: ${actual} ≈ ${expected}`).toBeLessThanOrEqual(1);
const box = async (locator: Locator) => {
  const found = await locator.boundingBox();
  if (!found) throw new Error("not laid out");
  return found;
};

/** Each value of a list of facts stands under its label and starts where it does. */
async function expectFlushFacts(facts: Locator) {
  const count = await facts.locator("dt").count();
  for (let index = 0; index < count; index += 1) {
    const label = await box(facts.locator("dt").nth(index));
    const value = await box(facts.locator("dd").nth(index));
    expectNear(value.x, label.x, `value ${index} starts where its label does`);
    expect(value.y).toBeGreaterThan(label.y);
  }
}

/** How many lines a cell's text takes: the distinct tops of its text's boxes. */
const linesOf = (cell: Locator) =>
  cell.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  });

/** The page's height and the navigation column's box, in page coordinates (not the viewport's). */
const navColumn = (page: Page) =>
  page.evaluate(() => {
    const nav = document.querySelector("nav[data-variant]")!.getBoundingClientRect();
    const topBar = document.querySelector("header")!.getBoundingClientRect();
    return {
      pageHeight: document.documentElement.scrollHeight,
      viewportHeight: window.innerHeight,
      top: nav.top + window.scrollY,
      bottom: nav.bottom + window.scrollY,
      topBarBottom: topBar.bottom + window.scrollY,
    };
  });

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("the navigation column runs from the top bar to the bottom of long pages, its links in view", async ({
      signedInPage: page,
    }) => {
      // A short window makes every one of these pages long: the global, client and agent navigation.
      await page.setViewportSize({ width: 1200, height: 420 });
      for (const path of ["/jobs", "/northfield/manage", SCREEN]) {
        await page.goto(path);
        const nav = page.locator("nav[data-variant]");
        const before = await navColumn(page);
        expect(before.pageHeight, `${path} is longer than the window`).toBeGreaterThan(before.viewportHeight + 200);
        expectNear(before.top, before.topBarBottom, `${path}: the column starts under the top bar`);
        expectNear(before.bottom, before.pageHeight, `${path}: the column's background reaches the page's bottom`);
        const background = (element: Element) => getComputedStyle(element).backgroundColor;
        const topBarBackground = await page.locator("header").first().evaluate(background);
        expect(await nav.evaluate(background), "the column has the top bar's background").toBe(topBarBackground);

        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const after = await navColumn(page);
        expectNear(after.bottom, after.pageHeight, `${path}, scrolled to the bottom`);
        await expect(nav.getByRole("link").first()).toBeInViewport();
      }
    });

    test("the expectation fields line up, a hint or an error under one; the CSV tools have a card", async ({
      signedInPage: page,
    }) => {
      await page.goto(SCREEN);
      const inputs = [
        page.getByLabel("Expected source"),
        page.getByLabel("Expected text"),
        page.getByLabel("Expected outcome"),
      ];
      const labels = ["expect_source", "expect_text", "expect_outcome"].map((name) =>
        page.locator(`label[for="test-question-${name}"]`),
      );
      const expectInOneRow = async () => {
        const inputBoxes = await Promise.all(inputs.map(box));
        const labelBoxes = await Promise.all(labels.map(box));
        for (const [index, input] of inputBoxes.entries()) {
          expectNear(input.y, inputBoxes[0].y, `input ${index} top`);
          expectNear(input.height, inputBoxes[0].height, `input ${index} height`);
          expectNear(labelBoxes[index].y, labelBoxes[0].y, `label ${index} top`);
        }
      };
      await expectInOneRow();

      // The server's refusal puts a message under Expected text only.
      await page.getByLabel("Question", { exact: true }).fill(unique("Where is the library?"));
      await page.getByRole("button", { name: "Add question" }).click();
      await expect(page.getByText("Say what the answer must do: a source, a text or an outcome")).toBeVisible();
      await expectInOneRow();

      const form = await box(page.getByRole("form", { name: "Add a test question" }));
      const card = page.getByRole("group", { name: "Import and export" });
      const csv = await box(card);
      expect(csv.y, "room between the question form and the CSV card").toBeGreaterThanOrEqual(form.y + form.height + 8);
      const padding = await card.evaluate((element) => parseFloat(getComputedStyle(element).paddingLeft));
      expect(padding).toBeGreaterThanOrEqual(16);
      const parts = [
        card.getByRole("link", { name: "Export CSV" }),
        card.getByText(/^CSV file/),
        card.getByLabel(/^CSV file/),
        card.getByRole("button", { name: "Import CSV" }),
      ];
      for (const part of parts) {
        const inside = await box(part);
        expect(inside.x).toBeGreaterThanOrEqual(csv.x + padding - 1);
        expect(inside.x + inside.width).toBeLessThanOrEqual(csv.x + csv.width - padding + 1);
        expect(inside.y).toBeGreaterThanOrEqual(csv.y + padding - 1);
        expect(inside.y + inside.height).toBeLessThanOrEqual(csv.y + csv.height - padding + 1);
      }
      expect(await card.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    });

    test("a search that matches nothing says so, names the search and clears it", async ({ signedInPage: page }) => {
      const search = unique("velodrome");
      await page.goto(SCREEN);
      await page.getByRole("searchbox", { name: "Search questions" }).fill(search);
      await page.getByRole("button", { name: "Search" }).click();
      const table = page.getByRole("table", { name: "Test questions" });
      await expect(table).toContainText(`No test questions match “${search}”.`);
      await expect(table).not.toContainText("No test questions yet.");
      await table.getByRole("link", { name: "Clear the search" }).click();
      await expect(page).not.toHaveURL(/search=/);
      await expect(page.getByRole("searchbox", { name: "Search questions" })).toHaveValue("");
      await expect(table).not.toContainText("match");
    });

    test("a UTF-16 CSV imports with its accents; a Latin-1 one is refused, saying it is not UTF-8", async ({
      signedInPage: page,
    }) => {
      const marker = unique("Résidence");
      const csv = `question,expect_text\r\nOù est la ${marker} ?,Zoë\r\n`;
      await page.goto(SCREEN);
      await page
        .getByLabel(/^CSV file/)
        .setInputFiles({ name: "latin1.csv", mimeType: "text/csv", buffer: Buffer.from(csv, "latin1") });
      await page.getByRole("button", { name: "Import CSV" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "This file is not UTF-8 (line 2 is not)" })).toBeVisible();

      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv, "utf16le")]);
      await page.getByLabel(/^CSV file/).setInputFiles({ name: "unicode.csv", mimeType: "text/csv", buffer: utf16 });
      await page.getByRole("button", { name: "Import CSV" }).click();
      await expect(page.getByTestId("toast")).toContainText("1 test question imported");
      await page.getByRole("searchbox", { name: "Search questions" }).fill(marker);
      await page.getByRole("button", { name: "Search" }).click();
      const rows = page.getByRole("table", { name: "Test questions" }).getByRole("row");
      await expect(rows).toHaveCount(2);
      await expect(rows.nth(1)).toContainText(`Où est la ${marker} ?`);
      await expect(rows.nth(1)).toContainText("Zoë");
    });

    test("a run's facts sit flush with their labels", async ({ signedInPage: page }) => {
      await page.goto(SCREEN);
      // An agent without test questions has no run to start: this one is given one (the journeys run in any order).
      await page.getByLabel("Question", { exact: true }).fill(`${unique("Is there a velodrome on Mars")}?`);
      await page.getByLabel("Expected outcome").selectOption({ label: "Fallback" });
      await page.getByRole("button", { name: "Add question" }).click();
      await expect(page.getByTestId("toast")).toContainText("Test question added");
      await page.getByRole("button", { name: "Run in stage" }).click();
      await expect(page).toHaveURL(/\/controls\/test-questions\/runs\/\d+$/);
      // With JavaScript the address changes a moment before the run's page replaces the screen and its runs' chips.
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Test run \d+$/);
      // Measured once the run is done: until then the page reloads itself without JavaScript.
      await expect(page.locator("[data-status=done]")).toBeVisible({ timeout: 45_000 });
      const facts = page.locator("dl").first();
      await expect(facts.locator("dt")).toHaveText(["Environment", "Why it ran", "Started", "Status"]);
      await expectFlushFacts(facts);
    });

    test("a website's facts in its drawer sit flush with their labels", async ({ signedInPage: page }) => {
      await page.goto("/northfield/agent/admissions/knowledge-store/websites");
      await page.locator("summary[aria-label^='Actions for']").first().click();
      await page.getByRole("link", { name: "View Links" }).click();
      const facts = page.getByRole("dialog").locator("dl");
      await expect(facts.locator("dt")).toHaveText(["Website", "Total URLs", "Last updated"]);
      await expectFlushFacts(facts);
    });

    test("a wide table keeps each row's actions in view at 1280 px, the menu opening over the page", async ({
      signedInPage: page,
    }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto("/northfield/agent/admissions/knowledge-store/websites");
      const table = page.getByRole("table", { name: "Websites" });
      const frame = await box(table.locator("xpath=.."));
      // The table is wider than its frame (it scrolls sideways); the row menu is not scrolled out of it.
      expect(await table.evaluate((element) => element.scrollWidth > element.parentElement!.clientWidth)).toBe(true);
      const menu = table.locator("tbody tr").first().locator("summary");
      const button = await box(menu);
      expect(button.x + button.width).toBeLessThanOrEqual(frame.x + frame.width);
      await menu.click();
      await expect(table.getByText("View Links").first()).toBeInViewport();
    });

    for (const [screen, path, lastColumn, width] of [
      ["websites", "/northfield/agent/admissions/knowledge-store/websites", "Added By", 1400],
      ["client's conversations", "/northfield/conversations", "Reviewed", 1280],
    ] as const) {
      test(`at ${width} px the ${screen} table shows every column without scrolling sideways`, async ({
        signedInPage: page,
      }) => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        const table = page.getByRole("table").first();
        await expect(table.getByRole("columnheader", { name: lastColumn })).toBeVisible();
        const [wide, frame] = await table.evaluate((element) => [
          element.scrollWidth,
          element.parentElement!.clientWidth,
        ]);
        expect(wide, `table ${wide} px in a frame of ${frame} px`).toBeLessThanOrEqual(frame);
      });
    }

    test("at 1280 px History's addresses and dates stand on one line, and a test question's Edit and Delete side by side", async ({
      signedInPage: page,
    }) => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto("/northfield/history");
      const firstChange = page.getByRole("table", { name: "Configuration changes" }).locator("tbody tr").first();
      for (const cell of [firstChange.locator("td").nth(0), firstChange.locator("td").nth(1)]) {
        expect(await linesOf(cell), await cell.innerText()).toBe(1);
      }
      await page.goto("/northfield/agent/admissions/controls/test-questions");
      const row = page
        .getByRole("table")
        .filter({ has: page.getByRole("columnheader", { name: "Expected source" }) })
        .locator("tbody tr")
        .first();
      const [edit, remove] = [row.getByRole("link", { name: /^Edit/ }), row.getByRole("link", { name: /^Delete/ })];
      expectNear((await box(edit)).y, (await box(remove)).y, "Delete stands beside Edit");
    });

    test("the websites table's scan mode shows its whole choice", async ({ signedInPage: page }) => {
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.goto("/northfield/agent/admissions/knowledge-store/websites");
      const select = page.getByRole("combobox", { name: "Scan Mode, row 1" });
      await expect(select).toHaveValue("full_website");
      expect(await select.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    });
  });
}
