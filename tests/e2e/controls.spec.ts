import type { Page } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, SAME_ORIGIN_POST, signIn, test } from "./fixtures";

/*
 * The controls screens and smart probing. Tests share one server and run in parallel, so each
 * edits its own list or setting (trigger point × screen) with values unique to it, and finds
 * rows by their text rather than by position.
 */
const unique = (label: string) => `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const saveButton = (page: Page) => page.getByTestId("save-bar").getByRole("button", { name: "Save" });
const toast = (page: Page) => page.getByTestId("toast");
const topicInputs = (page: Page) => page.getByRole("textbox", { name: /^Topic, row \d+$/ });
const topicField = (page: Page, n: number) => page.getByRole("textbox", { name: `Topic, row ${n}`, exact: true });
const responseField = (page: Page, label: string, n: number) =>
  page.getByRole("textbox", { name: `${label}, row ${n}`, exact: true });

/** The row number (1-based) whose topic is `text` ('' finds the first empty row); 0 when none. */
async function rowWithTopic(page: Page, text: string) {
  const values = await topicInputs(page).evaluateAll((inputs) =>
    inputs.map((input) => (input as HTMLInputElement).value),
  );
  return values.indexOf(text) + 1;
}

/** With JavaScript, Save waits for a change, and again after a save. */
async function expectSaveWaitsForChanges(page: Page) {
  await expect(saveButton(page)).toBeDisabled();
}

async function clearTopicRow(page: Page, topic: string, responseLabel: string) {
  const n = await rowWithTopic(page, topic);
  expect(n).toBeGreaterThan(0);
  await topicField(page, n).fill("");
  await responseField(page, responseLabel, n).fill("");
  await saveButton(page).click();
}

test.describe("with JavaScript", () => {
  test("AI Personality: prefilled, refused beside the field when too long, saved with a toast, kept after reload", async ({
    signedInPage: page,
  }) => {
    const PAGE = "/northfield/agent/studentsuccess/controls/ai-personality";
    await page.goto(PAGE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("AI Personality");
    const field = page.getByLabel("Chatbot Personality");
    await expect(field).toHaveValue(/You are the university's virtual assistant|Personality-/);
    await expect(page.getByText("Trigger point: studentsuccess")).toBeVisible();
    await expect(page.getByLabel("Trigger point", { exact: true })).toHaveCount(0);
    await expectSaveWaitsForChanges(page);
    await expectNoSeriousAxeViolations(page);

    await field.fill("x".repeat(20_001));
    await expect(saveButton(page)).toBeEnabled();
    await saveButton(page).click();
    await expect(field).toHaveAccessibleDescription(/Keep the personality to at most 20,000 characters/);
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(saveButton(page)).toBeEnabled();

    const text = `${unique("Personality")}\nSpeak plainly.`;
    await field.fill(text);
    await saveButton(page).click();
    await expect(toast(page)).toContainText("AI Personality saved for Student Success.");
    await expectSaveWaitsForChanges(page);
    // The keyboard stays where it was (a disabled Save would have dropped it to the page's body).
    await expect(saveButton(page)).toBeFocused();
    await expect(field).not.toHaveAttribute("aria-invalid");
    await page.reload();
    await expect(page.getByLabel("Chatbot Personality")).toHaveValue(text);
  });

  test("Sensitive Topics: 8 rows with help, a half-filled row gets the API's message, saved rows can be removed", async ({
    signedInPage: page,
  }) => {
    const PAGE = "/northfield/agent/studentsuccess/controls/sensitive-topics";
    const topic = unique("grant");
    await page.goto(PAGE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sensitive Topics");
    await expect(topicInputs(page)).toHaveCount(8);
    await expect(page.getByRole("columnheader", { name: /Disclaimer Text/ })).toContainText(
      "Shown with every answer about this topic.",
    );
    await expectSaveWaitsForChanges(page);
    await expectNoSeriousAxeViolations(page);

    const n = await rowWithTopic(page, "");
    await topicField(page, n).fill(topic);
    await saveButton(page).click();
    const disclaimer = responseField(page, "Disclaimer Text", n);
    await expect(disclaimer).toHaveAccessibleDescription(/Enter the disclaimer text for this topic/);
    await expect(topicField(page, n)).toHaveValue(topic);
    await expectNoSeriousAxeViolations(page);

    await disclaimer.fill("Amounts change every year.");
    await saveButton(page).click();
    await expect(toast(page)).toContainText("Sensitive Topics saved for Student Success.");
    await expectSaveWaitsForChanges(page);
    await page.reload();
    const saved = await rowWithTopic(page, topic);
    expect(saved).toBeGreaterThan(0);
    await expect(responseField(page, "Disclaimer Text", saved)).toHaveValue("Amounts change every year.");

    await clearTopicRow(page, topic, "Disclaimer Text");
    await expect(toast(page)).toContainText("Sensitive Topics saved for Student Success.");
    await page.reload();
    await expect(topicInputs(page)).toHaveCount(8);
    expect(await rowWithTopic(page, topic)).toBe(0);
  });

  test("No-Go Topics: a canned response without its topic is refused beside the topic; saved and removed", async ({
    signedInPage: page,
  }) => {
    const PAGE = "/northfield/agent/studentsuccess/controls/no-go-topics";
    const topic = unique("rival");
    await page.goto(PAGE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("No-Go Topics");
    await expect(page.getByRole("columnheader", { name: /Canned Response/ })).toContainText(
      "What the assistant says instead of answering.",
    );
    const n = await rowWithTopic(page, "");
    await responseField(page, "Canned Response", n).fill("I can only speak about Northfield.");
    await saveButton(page).click();
    await expect(topicField(page, n)).toHaveAccessibleDescription(/Enter the topic this canned response is for/);

    await topicField(page, n).fill(topic);
    await saveButton(page).click();
    await expect(toast(page)).toContainText("No-Go Topics saved for Student Success.");
    await expectSaveWaitsForChanges(page);
    await page.reload();
    const saved = await rowWithTopic(page, topic);
    await expect(responseField(page, "Canned Response", saved)).toHaveValue("I can only speak about Northfield.");

    await clearTopicRow(page, topic, "Canned Response");
    await expect(toast(page)).toContainText("No-Go Topics saved for Student Success.");
    await page.reload();
    expect(await rowWithTopic(page, topic)).toBe(0);
  });

  test("Quality Check: numbers checked beside their fields, saved with a toast and kept after reload", async ({
    signedInPage: page,
  }) => {
    const PAGE = "/northfield/agent/studentsuccess/controls/quality-check";
    const fallback = unique("Please call us");
    await page.goto(PAGE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hallucination Accuracy & Quality Check");
    const confidence = page.getByLabel("Minimum Retrieval Confidence");
    await expect(confidence).toHaveAttribute("min", "0");
    await expect(confidence).toHaveAttribute("max", "1");
    await expect(confidence).toHaveAttribute("step", "0.01");
    await expectSaveWaitsForChanges(page);
    await expectNoSeriousAxeViolations(page);

    await confidence.fill("1.5");
    await saveButton(page).click();
    await expect(confidence).toHaveAccessibleDescription(/Enter a number from 0 to 1/);
    await expectNoSeriousAxeViolations(page);

    await confidence.fill("0.35");
    await page.getByLabel("Maximum Sources Per Answer").fill("5");
    await page.getByLabel("Require A Source For Every Answer").check();
    await page.getByLabel("Fallback Message").fill(fallback);
    await saveButton(page).click();
    await expect(toast(page)).toContainText("Hallucination Accuracy & Quality Check saved for Student Success.");
    await expectSaveWaitsForChanges(page);
    await page.reload();
    await expect(page.getByLabel("Minimum Retrieval Confidence")).toHaveValue("0.35");
    await expect(page.getByLabel("Maximum Sources Per Answer")).toHaveValue("5");
    await expect(page.getByLabel("Require A Source For Every Answer")).toBeChecked();
    await expect(page.getByLabel("Fallback Message")).toHaveValue(fallback);
  });

  test("User Probing Guidelines: two 10-row texts, a refused one keeps its message, a saved one stays", async ({
    signedInPage: page,
  }) => {
    const PAGE = "/northfield/agent/studentsuccess/knowledge-store/smart-probing";
    const topics = `${unique("Start term")}\nStudy mode`;
    await page.goto(PAGE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("User Probing Guidelines");
    const probing = page.getByLabel("Topics For Probing");
    const mapping = page.getByLabel("Topics to Prob Mapping");
    await expect(probing).toHaveAttribute("rows", "10");
    await expect(mapping).toHaveAttribute("rows", "10");
    await expectSaveWaitsForChanges(page);
    await expectNoSeriousAxeViolations(page);

    await mapping.fill("m".repeat(20_001));
    await saveButton(page).click();
    await expect(mapping).toHaveAccessibleDescription(/Keep it to at most 20,000 characters/);

    await mapping.fill("Start term: ask when they hope to begin.");
    await probing.fill(topics);
    await saveButton(page).click();
    await expect(toast(page)).toContainText("User Probing Guidelines saved for Student Success.");
    await expectSaveWaitsForChanges(page);
    await page.reload();
    await expect(page.getByLabel("Topics For Probing")).toHaveValue(topics);
    await expect(page.getByLabel("Topics to Prob Mapping")).toHaveValue("Start term: ask when they hope to begin.");
  });

  test("a field taking the focus from below scrolls into view under the sticky save bar, not behind it", async ({
    signedInPage: page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto("/northfield/controls/sensitive-topics");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    // The second row has the keyboard, the page scrolled to its end; Shift+Tab goes back up.
    await topicField(page, 2).evaluate((field) => {
      field.focus({ preventScroll: true });
      window.scrollTo(0, document.documentElement.scrollHeight);
    });
    for (const field of [responseField(page, "Disclaimer Text", 1), topicField(page, 1)]) {
      await page.keyboard.press("Shift+Tab");
      await expect(field).toBeFocused();
      // What is at the field's centre is the field itself, not the save bar stuck over it.
      const seen = await field.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2) === element;
      });
      expect(seen).toBe(true);
    }
  });

  test("at client level the trigger-point selector chooses what is edited, and a save keeps the choice", async ({
    signedInPage: page,
  }) => {
    const topic = unique("dorm");
    await page.goto("/northfield/controls/sensitive-topics");
    const selector = page.getByLabel("Trigger point", { exact: true });
    await expect(selector.getByRole("option")).toHaveText(["Default", "admissions", "studentsuccess"]);
    await expect(selector).toHaveValue("");
    await selector.selectOption("admissions");
    await expect(page).toHaveURL(/\/northfield\/controls\/sensitive-topics\?trigger_point=admissions$/);

    const n = await rowWithTopic(page, "");
    await topicField(page, n).fill(topic);
    await responseField(page, "Disclaimer Text", n).fill("Rooms are assigned in July.");
    await saveButton(page).click();
    await expect(toast(page)).toContainText("Sensitive Topics saved for Admissions Assistant.");
    await expect(page).toHaveURL(/\?trigger_point=admissions$/);
    await expect(page.getByLabel("Trigger point", { exact: true })).toHaveValue("admissions");
    expect(await rowWithTopic(page, topic)).toBeGreaterThan(0);

    // The same trigger point as the admissions agent's own page; not the Default's.
    await page.goto("/northfield/agent/admissions/controls/sensitive-topics");
    expect(await rowWithTopic(page, topic)).toBeGreaterThan(0);
    await page.goto("/northfield/controls/sensitive-topics");
    await expect(topicInputs(page)).toHaveCount(8);
    expect(await rowWithTopic(page, topic)).toBe(0);

    await page.goto("/northfield/controls/sensitive-topics?trigger_point=admissions");
    await clearTopicRow(page, topic, "Disclaimer Text");
    await expect(toast(page)).toContainText("Sensitive Topics saved for Admissions Assistant.");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("every screen saves with a plain form post; the server's messages come back beside the fields", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await signIn(page);
    const CLIENT = "/shopharbor-outfitters";

    // AI Personality: empty for an ecommerce client until one is written.
    const personality = unique("Friendly shop guide");
    await page.goto(`${CLIENT}/controls/ai-personality`);
    await expect(page.getByLabel("Chatbot Personality")).toHaveValue("");
    await page.getByLabel("Chatbot Personality").fill(personality);
    await saveButton(page).click();
    await expect(toast(page)).toContainText("AI Personality saved for Default.");
    await expect(page.getByLabel("Chatbot Personality")).toHaveValue(personality);

    // Sensitive Topics: half a row is refused by the API, with everything typed kept.
    const sensitive = unique("returns");
    await page.goto(`${CLIENT}/controls/sensitive-topics`);
    let n = await rowWithTopic(page, "");
    await topicField(page, n).fill(sensitive);
    await saveButton(page).click();
    await expect(responseField(page, "Disclaimer Text", n)).toHaveAccessibleDescription(
      /Enter the disclaimer text for this topic/,
    );
    await expect(topicField(page, n)).toHaveValue(sensitive);
    await responseField(page, "Disclaimer Text", n).fill("Returns are free within 30 days.");
    await saveButton(page).click();
    await expect(toast(page)).toContainText("Sensitive Topics saved for Default.");
    expect(await rowWithTopic(page, sensitive)).toBeGreaterThan(0);

    // No-Go Topics.
    const noGo = unique("lawsuit");
    await page.goto(`${CLIENT}/controls/no-go-topics`);
    n = await rowWithTopic(page, "");
    await topicField(page, n).fill(noGo);
    await responseField(page, "Canned Response", n).fill("Please contact our legal team.");
    await saveButton(page).click();
    await expect(toast(page)).toContainText("No-Go Topics saved for Default.");
    await expect(responseField(page, "Canned Response", await rowWithTopic(page, noGo))).toHaveValue(
      "Please contact our legal team.",
    );

    // Quality Check: the server checks the numbers (no browser checks in the way).
    const fallback = unique("Ask in store");
    await page.goto(`${CLIENT}/controls/quality-check`);
    await page.getByLabel("Minimum Retrieval Confidence").fill("2");
    await page.getByLabel("Fallback Message").fill(fallback);
    await saveButton(page).click();
    await expect(page.getByLabel("Minimum Retrieval Confidence")).toHaveAccessibleDescription(
      /Enter a number from 0 to 1/,
    );
    await expect(page.getByLabel("Fallback Message")).toHaveValue(fallback);
    await page.getByLabel("Minimum Retrieval Confidence").fill("0.5");
    await saveButton(page).click();
    await expect(toast(page)).toContainText("Hallucination Accuracy & Quality Check saved for Default.");
    await expect(page.getByLabel("Minimum Retrieval Confidence")).toHaveValue("0.5");
    await expect(page.getByLabel("Fallback Message")).toHaveValue(fallback);

    // Smart probing at its legacy address, for the shop trigger point chosen with 'Show'.
    const probing = unique("Size and fit");
    await page.goto(`${CLIENT}/ai-finetuning/smart-probe`);
    await page.getByLabel("Trigger point", { exact: true }).selectOption("shop");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/\/ai-finetuning\/smart-probe\?trigger_point=shop$/);
    await page.getByLabel("Topics For Probing").fill(probing);
    await saveButton(page).click();
    await expect(toast(page)).toContainText("User Probing Guidelines saved for Shop Assistant.");
    await expect(page).toHaveURL(/\?trigger_point=shop$/);
    await expect(page.getByLabel("Topics For Probing")).toHaveValue(probing);
  });
});

test("a client user sees every screen read-only, without a save bar, and a save is refused", async ({ page }) => {
  await signIn(page, "client.user@example.com");
  const screens: [string, string][] = [
    ["/northfield/agent/admissions/controls/ai-personality", "Chatbot Personality"],
    ["/northfield/agent/admissions/controls/sensitive-topics", "Topic, row 1"],
    ["/northfield/controls/no-go-topics", "Topic, row 1"],
    ["/northfield/controls/quality-check", "Minimum Retrieval Confidence"],
    ["/northfield/ai-finetuning/smart-probe", "Topics For Probing"],
  ];
  for (const [path, field] of screens) {
    await page.goto(path);
    await expect(page.getByText("You can view these settings, but not change them."), path).toBeVisible();
    await expect(page.getByLabel(field, { exact: true }), path).toBeDisabled();
    await expect(page.getByTestId("save-bar"), path).toHaveCount(0);
  }
  await expectNoSeriousAxeViolations(page);
  // Posted as the page's own form would be, so that the refusal is the read-only Client's.
  const refused = await page.request.post("/northfield/controls/no-go-topics", {
    form: { intent: "save", "rows[0].topic": "x", "rows[0].disclaimer": "y" },
    headers: SAME_ORIGIN_POST,
  });
  expect(refused.status()).toBe(403);
});
