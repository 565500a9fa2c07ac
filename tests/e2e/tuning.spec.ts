import type { Page } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, signIn, test } from "./fixtures";

const PROMPTS = "/northfield/ai-finetuning/input-prompts";
const FINETUNING = "/northfield/ai-finetuning/ai-finetuning";

/** Tests share one server and run in parallel: every key and pattern is unique to its test. */
const unique = (label: string) => `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const saveButton = (page: Page) => page.getByTestId("save-bar").getByRole("button", { name: "Save" });
const toast = (page: Page) => page.getByTestId("toast");
const section = (page: Page, title: string) => page.getByRole("region", { name: title });
const URL_TABLE = "URL Pattern Based Weightage";
const PAGE_TABLE = "Page HTML/PDF Based Weightage";
const CLEANUP_TABLE = "Clean up HTML Tags";

/** The `data-row-id` of the one finetuning row holding this pattern (or, `inTextarea`, this metadata). */
async function rowIdWith(page: Page, value: string, inTextarea = false) {
  const field = inTextarea ? page.locator("textarea", { hasText: value }) : page.locator(`input[value="${value}"]`);
  const row = page.locator("tr[data-row-id]").filter({ has: field });
  await expect(row).toHaveCount(1);
  return (await row.getAttribute("data-row-id"))!;
}
const rowById = (page: Page, id: string) => page.locator(`tr[data-row-id="${id}"]`);

/** The Input Prompts row whose Prompt Key holds this key. */
const promptRow = (page: Page, key: string) =>
  page.locator("tbody tr").filter({ has: page.locator(`input[value="${key}"]`) });

test.describe("with JavaScript", () => {
  test("AI Finetuning: add, refuse, save, edit and delete rows in each table", async ({ signedInPage: page }) => {
    const news = `/news-${unique("u")}/`;
    const brochure = unique("brochure");
    const promo = `.${unique("promo")}`;
    await page.goto(FINETUNING);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("AI Finetuning");
    await expect(page.getByRole("heading", { level: 2 })).toHaveText([URL_TABLE, PAGE_TABLE, CLEANUP_TABLE]);
    await expect(page.getByRole("table", { name: URL_TABLE }).getByRole("columnheader")).toHaveText([
      "Site",
      "Pattern",
      "Penalty",
      "Actions",
    ]);
    await expect(page.getByRole("table", { name: PAGE_TABLE }).getByRole("columnheader")).toHaveText([
      "Site",
      "Type",
      "Pattern",
      "Penalty",
      "Actions",
    ]);
    await expect(page.getByRole("table", { name: CLEANUP_TABLE }).getByRole("columnheader")).toHaveText([
      "Site",
      "Metadata JSON",
      "Actions",
    ]);
    await expect(saveButton(page)).toBeDisabled();

    // URL pattern: a new row has a temporary id; a penalty of 2 is refused beside its cell.
    await section(page, URL_TABLE).getByRole("button", { name: "+ Add" }).click();
    const site1 = page.getByLabel("Site, URL pattern row 1", { exact: true });
    await expect(site1).toBeFocused();
    await expect(site1).toHaveValue("");
    // Default first, then the client's trigger points and agents (other journeys add agents to this client).
    await expect(site1.locator("option").first()).toHaveText("Default");
    const sites = await site1.locator("option").allTextContents();
    expect(sites).toEqual(expect.arrayContaining(["admissions", "studentsuccess"]));
    await expect(page.locator("tr", { has: site1 })).toHaveAttribute("data-row-id", /^new-\d+$/);
    await expect(saveButton(page)).toBeDisabled(); // a blank row is ignored: nothing to save yet
    await page.getByLabel("Pattern, URL pattern row 1", { exact: true }).fill(news);
    await page.getByLabel("Penalty, URL pattern row 1", { exact: true }).fill("2");
    await expect(page.getByLabel("Penalty, URL pattern row 1", { exact: true })).toHaveAttribute(
      "placeholder",
      "e.g. 0.5",
    );

    // HTML/PDF: a PDF rule for one site.
    await section(page, PAGE_TABLE).getByRole("button", { name: "+ Add" }).click();
    await page.getByLabel("Site, HTML/PDF row 1", { exact: true }).selectOption("admissions");
    await page.getByLabel("Type, HTML/PDF row 1", { exact: true }).selectOption({ label: "PDF" });
    await page.getByLabel("Pattern, HTML/PDF row 1", { exact: true }).fill(brochure);
    await page.getByLabel("Penalty, HTML/PDF row 1", { exact: true }).fill("0.3");

    // Clean-up: unreadable JSON is refused.
    await section(page, CLEANUP_TABLE).getByRole("button", { name: "+ Add" }).click();
    const metadata = page.getByLabel("Metadata JSON, Clean-up row 1", { exact: true });
    await metadata.fill('{"tags": [footer');
    await expectNoSeriousAxeViolations(page);

    await saveButton(page).click();
    await expect(page.getByTestId("save-bar")).toContainText("Fix the highlighted rows before saving.");
    const penalty = page.getByLabel("Penalty, URL pattern row 1", { exact: true });
    await expect(penalty).toHaveAttribute("aria-invalid", "true");
    // The first flagged field in reading order: the first table's, though the Clean-up row is newer.
    await expect(penalty).toBeFocused();
    await expect(page.locator("tr", { has: penalty })).toContainText("The penalty must be a number from 0 to 1");
    await expect(metadata).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("tr", { has: metadata })).toContainText("Metadata must be a JSON object, like");
    await expect(page.getByLabel("Pattern, HTML/PDF row 1", { exact: true })).toHaveValue(brochure);

    await penalty.fill("0.5");
    await expect(penalty).not.toHaveAttribute("aria-invalid", "true");
    await metadata.fill(`{"tags": ["footer", "${promo}"]}`);
    await saveButton(page).click();
    await expect(toast(page)).toContainText("AI Finetuning saved: 3 rules saved");
    await expect(saveButton(page)).toBeDisabled();

    // Saved rows have real ids, and a reload shows them.
    await page.reload();
    const newsId = await rowIdWith(page, news);
    const brochureId = await rowIdWith(page, brochure);
    const promoId = await rowIdWith(page, `{"tags":["footer","${promo}"]}`, true);
    for (const id of [newsId, brochureId, promoId]) expect(id).toMatch(/^\d+$/);
    await expect(rowById(page, newsId!).getByLabel(/^Penalty/)).toHaveValue("0.5");
    await expect(rowById(page, brochureId!).getByLabel(/^Type/)).toHaveValue("pdf_weightage");
    await expect(rowById(page, brochureId!).getByLabel(/^Site/)).toHaveValue("admissions");

    // Edit one, delete two: deleted rows disappear at once and leave the server on save.
    await rowById(page, newsId!)
      .getByLabel(/^Penalty/)
      .fill("0.75");
    await rowById(page, brochureId!)
      .getByRole("button", { name: /^Delete HTML\/PDF row \d+$/ })
      .click();
    await expect(rowById(page, brochureId!)).toBeHidden();
    await rowById(page, promoId!)
      .getByRole("button", { name: /^Delete Clean-up row \d+$/ })
      .click();
    await expect(rowById(page, promoId!)).toBeHidden();
    await saveButton(page).click();
    await expect(toast(page)).toContainText("AI Finetuning saved: 1 rule saved, 2 rules deleted");
    await page.reload();
    await expect(rowById(page, newsId!).getByLabel(/^Penalty/)).toHaveValue("0.75");
    await expect(rowById(page, brochureId!)).toHaveCount(0);
    await expect(rowById(page, promoId!)).toHaveCount(0);

    // Clean up after ourselves.
    await rowById(page, newsId!)
      .getByRole("button", { name: /^Delete URL pattern row \d+$/ })
      .click();
    await saveButton(page).click();
    await expect(toast(page)).toContainText("1 rule deleted");
  });

  test("AI Finetuning: what only the API finds comes back beside the right cell, nothing typed lost", async ({
    signedInPage: page,
  }) => {
    const events = `/events-${unique("u")}/`;
    await page.goto(FINETUNING);
    const add = section(page, URL_TABLE).getByRole("button", { name: "+ Add" });
    await add.click();
    await page.getByLabel("Pattern, URL pattern row 1", { exact: true }).fill(events);
    await page.getByLabel("Penalty, URL pattern row 1", { exact: true }).fill("0.2");
    await add.click();
    await page.getByLabel("Pattern, URL pattern row 1", { exact: true }).fill(events);
    await page.getByLabel("Penalty, URL pattern row 1", { exact: true }).fill("0.4");
    // A clean-up rule for another site than Default is refused (pages are indexed for all agents).
    await section(page, CLEANUP_TABLE).getByRole("button", { name: "+ Add" }).click();
    await page.getByLabel("Site, Clean-up row 1", { exact: true }).selectOption("studentsuccess");
    await page.getByLabel("Metadata JSON, Clean-up row 1", { exact: true }).fill('{"tags": ["nav"]}');
    await saveButton(page).click();
    await expect(page.getByLabel("Site, Clean-up row 1", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await page.getByRole("button", { name: "Delete Clean-up row 1", exact: true }).click();

    await saveButton(page).click();
    // The duplicate is found by the API (the second of the two it was sent): its message sits on
    // the pattern of the row it is about.
    const second = page.getByLabel("Pattern, URL pattern row 2", { exact: true });
    await expect(second).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("tr", { has: second })).toContainText("The same rule is listed twice for this site");
    await expect(page.getByLabel("Pattern, URL pattern row 1", { exact: true })).not.toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expect(page.getByLabel("Penalty, URL pattern row 1", { exact: true })).toHaveValue("0.4");
    await expect(page.getByLabel("Penalty, URL pattern row 2", { exact: true })).toHaveValue("0.2");
    await expect(page.locator("tr", { has: second })).toHaveAttribute("data-row-id", /^new-\d+$/);

    await page.getByRole("button", { name: "Delete URL pattern row 2", exact: true }).click();
    await saveButton(page).click();
    await expect(toast(page)).toContainText("AI Finetuning saved: 1 rule saved");
    const id = await rowIdWith(page, events);
    expect(id).toMatch(/^\d+$/);
    await rowById(page, id!)
      .getByRole("button", { name: /^Delete URL pattern row/ })
      .click();
    await saveButton(page).click();
    await expect(toast(page)).toContainText("1 rule deleted");
  });

  test("Input Prompts: add with the required checks, save, reload, delete after the question", async ({
    signedInPage: page,
  }) => {
    const key = unique("welcome").replace(/-/g, "_");
    await page.goto(PROMPTS);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Input Prompts");
    await page.getByLabel("Trigger point", { exact: true }).selectOption("studentsuccess");
    await expect(page).toHaveURL(/trigger_point=studentsuccess/);
    await expect(page.getByRole("columnheader")).toHaveText(["Prompt Key", "Prompt", "Actions"]);
    await expect(saveButton(page)).toBeDisabled();

    await page.getByRole("button", { name: "+ Add Input Prompt" }).click();
    await expect(page.getByLabel("Prompt Key, row 1", { exact: true })).toBeFocused();
    await saveButton(page).click();
    await expect(page.locator("tbody tr").first().getByText("This string is required")).toHaveCount(2);
    await expect(page.getByLabel("Prompt Key, row 1", { exact: true })).toHaveAttribute("aria-invalid", "true");

    // A key the API refuses comes back beside its cell.
    await page.getByLabel("Prompt Key, row 1", { exact: true }).fill("has spaces");
    const prompt = page.getByLabel("Prompt, row 1", { exact: true });
    await expect(prompt).toHaveAttribute("rows", "6");
    await prompt.fill(`Greet the student warmly. ${"Mention the open day and the application deadline. ".repeat(9)}`);
    await expect(prompt).toHaveAttribute("rows", "9");
    await saveButton(page).click();
    await expect(page.locator("tbody tr").first()).toContainText(
      "Use letters, digits, '_', '.' and '-' only, without spaces",
    );
    await expect(prompt).toHaveValue(/^Greet the student warmly\./);

    await page.getByLabel("Prompt Key, row 1", { exact: true }).fill(key);
    await saveButton(page).click();
    await expect(toast(page)).toContainText("Successfully saved the input prompts.");
    await expect(saveButton(page)).toBeDisabled();
    await expectNoSeriousAxeViolations(page);
    await page.reload();
    await expect(promptRow(page, key).getByRole("textbox", { name: /^Prompt, row/ })).toHaveValue(
      /^Greet the student warmly\./,
    );
    // Each trigger point has its own prompts.
    await page.goto(PROMPTS);
    await expect(promptRow(page, key)).toHaveCount(0);

    await page.goto(`${PROMPTS}?trigger_point=studentsuccess`);
    await promptRow(page, key)
      .getByRole("link", { name: `Delete prompt ${key}` })
      .click();
    const question = page.getByRole("form", { name: "Delete prompt" });
    await expect(question.getByRole("alert")).toHaveText(`Do you want to delete the prompt “${key}”?`);
    await expect(question).toBeFocused();
    await question.getByRole("link", { name: "Cancel" }).click();
    await expect(question).toHaveCount(0);
    await expect(promptRow(page, key)).toHaveCount(1);

    await promptRow(page, key)
      .getByRole("link", { name: `Delete prompt ${key}` })
      .click();
    await question.getByRole("button", { name: "Delete prompt" }).click();
    await expect(toast(page)).toContainText(`Deleted the prompt ${key}`);
    await expect(page).toHaveURL(new RegExp(`${PROMPTS}\\?trigger_point=studentsuccess$`));
    await expect(promptRow(page, key)).toHaveCount(0);

    // A prompt deleted meanwhile (in another tab) cannot be deleted again: the spec's failure toast.
    await page.getByRole("button", { name: "+ Add Input Prompt" }).click();
    await page.getByLabel("Prompt Key, row 1", { exact: true }).fill(`${key}_again`);
    await page.getByLabel("Prompt, row 1", { exact: true }).fill("Short-lived.");
    await saveButton(page).click();
    await expect(toast(page)).toContainText("Successfully saved the input prompts.");
    await promptRow(page, `${key}_again`)
      .getByRole("link", { name: /^Delete prompt/ })
      .click();
    await expect(question).toBeVisible();
    const other = await page.context().newPage();
    await other.goto(page.url());
    await other.getByRole("button", { name: "Delete prompt" }).click();
    await expect(toast(other)).toContainText(`Deleted the prompt ${key}_again`);
    await other.close();
    await question.getByRole("button", { name: "Delete prompt" }).click();
    await expect(toast(page)).toContainText("Unable to delete prompt. Please try again.");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("AI Finetuning: add a row through the form, save it, delete it", async ({ signedInPage: page }) => {
    const pattern = `/nojs-${unique("u")}/`;
    await page.goto(FINETUNING);
    await expect(saveButton(page)).toBeEnabled();
    await section(page, URL_TABLE).getByRole("button", { name: "+ Add" }).click();
    const row = page.locator("tr", { has: page.getByLabel("Site, URL pattern row 1", { exact: true }) });
    await expect(row).toHaveAttribute("data-row-id", /^new-\d+$/);
    await page.getByLabel("Pattern, URL pattern row 1", { exact: true }).fill(pattern);
    await page.getByLabel("Penalty, URL pattern row 1", { exact: true }).fill("1.5");
    await saveButton(page).click();
    // The server's check: the message beside its cell, what was typed kept.
    await expect(page.getByLabel("Penalty, URL pattern row 1", { exact: true })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expect(row).toContainText("The penalty must be a number from 0 to 1");
    await expect(page.getByLabel("Pattern, URL pattern row 1", { exact: true })).toHaveValue(pattern);

    await page.getByLabel("Penalty, URL pattern row 1", { exact: true }).fill("0.4");
    await saveButton(page).click();
    await expect(toast(page)).toContainText("AI Finetuning saved: 1 rule saved");
    const id = await rowIdWith(page, pattern);
    expect(id).toMatch(/^\d+$/);

    await rowById(page, id!)
      .getByRole("button", { name: /^Delete URL pattern row/ })
      .click();
    await expect(rowById(page, id!)).toBeHidden();
    await saveButton(page).click();
    await expect(toast(page)).toContainText("AI Finetuning saved: 1 rule deleted");
    await expect(rowById(page, id!)).toHaveCount(0);
  });

  test("Input Prompts: add, save, and delete after the server's question", async ({ signedInPage: page }) => {
    const key = unique("nojs").replace(/-/g, "_");
    await page.goto(PROMPTS);
    await page.getByLabel("Trigger point", { exact: true }).selectOption("admissions");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/trigger_point=admissions/);
    await page.getByRole("button", { name: "+ Add Input Prompt" }).click();
    await page.getByLabel("Prompt Key, row 1", { exact: true }).fill(key);
    await saveButton(page).click();
    await expect(page.getByLabel("Prompt, row 1", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Prompt Key, row 1", { exact: true })).toHaveValue(key);
    await page.getByLabel("Prompt, row 1", { exact: true }).fill("Answer in two sentences.");
    await saveButton(page).click();
    await expect(toast(page)).toContainText("Successfully saved the input prompts.");
    await expect(page).toHaveURL(/trigger_point=admissions/);

    await promptRow(page, key)
      .getByRole("link", { name: `Delete prompt ${key}` })
      .click();
    await expect(page.getByRole("alert").filter({ hasText: "Do you want to delete the prompt" })).toContainText(key);
    await page.getByRole("button", { name: "Delete prompt" }).click();
    await expect(toast(page)).toContainText(`Deleted the prompt ${key}`);
    await expect(promptRow(page, key)).toHaveCount(0);
  });
});

test("a client user sees both screens read-only", async ({ page }) => {
  await signIn(page, "client.user@example.com");
  await page.goto(FINETUNING);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("AI Finetuning");
  await expect(page.getByRole("button", { name: "+ Add" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Delete / })).toHaveCount(0);
  await expect(saveButton(page)).toBeDisabled();
  await expect(page.getByTestId("save-bar")).toContainText(
    "You can view this client's finetuning rules, but not change them.",
  );

  await page.goto(PROMPTS);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Input Prompts");
  await expect(page.getByRole("button", { name: "+ Add Input Prompt" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /^Delete prompt/ })).toHaveCount(0);
  await expect(saveButton(page)).toBeDisabled();
  await expect(page.getByTestId("save-bar")).toContainText(
    "You can view this client's input prompts, but not change them.",
  );
});
