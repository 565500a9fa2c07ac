import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, test } from "./fixtures";
import { apiAdmin } from "./api-admin";
import { BASE_URL } from "./ports";

/*
 * The Conversations screens as an operator uses them, with JavaScript and without: a list filtered
 * by its address, a transcript, the trace of an answer ("Why this answer"), and an answer made a
 * test question that shows in Test Questions. Tests share one server: each visitor says a word of
 * its own first, which the list's search finds.
 */
const LIST = "/northfield/agent/admissions/conversations";
const TEST_QUESTIONS = "/northfield/agent/admissions/controls/test-questions";
const QUESTION = "How many students does the nursing program admit?";
const toast = (page: Page) => page.getByTestId("toast");
const unique = () => `visitor${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The bundled demo site, indexed through the API (what an operator does with Index All on the Websites page). */
async function indexDemoSite(request: APIRequestContext) {
  const { headers, appId } = await apiAdmin(request);
  const websites = async () =>
    (await (await request.get(`/v1/apps/${appId}/websites`, { headers })).json()).websites as {
      id: number;
      url: string;
      status: string;
    }[];
  const demo = (await websites()).find((website) => website.url.includes("/demo-site/"))!;
  await expect
    .poll(async () => (await websites()).find((website) => website.id === demo.id)!.status, { timeout: 30_000 })
    .toBe("sitemap_generated");
  const urls = async () =>
    (await (await request.get(`/v1/apps/${appId}/websites/${demo.id}/urls?page_size=100`, { headers })).json())
      .data as { status: string }[];
  if ((await urls()).every((url) => url.status === "indexed")) return;
  await request.post(`/v1/apps/${appId}/websites/${demo.id}/urls/update_status`, {
    headers,
    data: { status: "to_be_indexed" },
  });
  await expect
    .poll(async () => (await urls()).every((url) => url.status === "indexed"), { timeout: 45_000 })
    .toBe(true);
}

// Indexing waits on real jobs: once per worker, on its own time, before the journeys that read answers of the site.
test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  const request = await playwright.request.newContext({ baseURL: BASE_URL });
  await indexDemoSite(request);
  await request.dispose();
});

/**
 * A visitor's conversation with the admissions agent (or another) through the public chat
 * endpoint, as the widget holds it: a greeting with the visitor's own word, then a question the
 * demo site answers (or the questions given).
 */
async function converse(
  request: APIRequestContext,
  marker: string,
  { triggerPoint = "admissions", questions = [QUESTION] }: { triggerPoint?: string; questions?: string[] } = {},
) {
  const { headers, appId } = await apiAdmin(request);
  const { key } = await (
    await request.get(`/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`, { headers })
  ).json();
  let conversation: string | undefined;
  let answer = 0;
  for (const message of [`Hello, this is ${marker}.`, ...questions]) {
    const response = await request.post("/v1/chat", {
      data: { key, trigger_point: triggerPoint, message, conversation_id: conversation },
    });
    const events = (await response.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; conversation_id?: string; message_id?: number });
    conversation = events.find((event) => event.type === "start")!.conversation_id;
    answer = events.find((event) => event.type === "done")!.message_id!;
  }
  return { conversation: conversation!, answer, key: key as string };
}

/** A new agent of Northfield made through the API: its trigger point, whose answers no other test reads or changes. */
async function agentOfItsOwn(request: APIRequestContext) {
  const { headers, appId } = await apiAdmin(request);
  const agent = unique();
  const created = await request.post(`/v1/apps/${appId}/agents/update_agents`, {
    headers,
    data: { app_id: appId, name: `Agent ${agent}`, site_code: agent },
  });
  expect(created.ok()).toBe(true);
  return agent;
}

/** An agent of its own (agentOfItsOwn) with a No-Go topic. */
async function agentWithNoGoTopic(request: APIRequestContext, topic: string, cannedResponse: string) {
  const { headers, appId } = await apiAdmin(request);
  const agent = await agentOfItsOwn(request);
  const saved = await request.put("/v1/controls", {
    headers,
    data: {
      app_id: appId,
      controls: [
        {
          internal_name: "no_go_topics",
          prompt_input_raw: topic,
          metadata: { disclaimer: cannedResponse },
          trigger_point: agent,
        },
      ],
    },
  });
  expect(saved.ok()).toBe(true);
  return agent;
}

/** "Why this answer" of the answer on a transcript that says `text`, opened. */
async function whyThisAnswer(page: Page, text: string) {
  const answer = page.locator("li[data-role=assistant]").filter({ hasText: text });
  await answer.getByText("Why this answer", { exact: true }).click();
  return answer;
}

/** The answer to the nursing question on a transcript. */
const nursingAnswer = (page: Page) =>
  page.locator("li[data-role=assistant]").filter({ hasText: "The program admits 120 students each fall." });

async function readTheTrace(page: Page) {
  const answer = nursingAnswer(page);
  await answer.getByText("Why this answer", { exact: true }).click();
  const passages = answer.getByRole("table", { name: "Passages retrieved" });
  await expect(passages).toBeVisible();
  const top = passages.getByRole("row").nth(1);
  await expect(top.getByRole("link").first()).toHaveAttribute("href", /\/demo-site\/programs\/$/);
  await expect(top).toContainText("Quotable");
  await expect(top).toContainText("Used");
  // The answer is one sentence of the first passage: the programs page's other passages were only
  // listed with it, under the one source the visitor was shown.
  await expect(passages.getByRole("cell", { name: "Used", exact: true })).toHaveCount(1);
  await expect(passages.getByRole("row").nth(2)).toContainText("Listed as a source only");
  // The question's key words, each with its share and how many passages held it; the top passage
  // names those it holds under its score, and the store lacked none of them.
  const keyWords = answer.getByRole("table", { name: "Key words of the question" });
  await expect(keyWords.getByRole("row").filter({ hasText: "nursing" })).toContainText(/\d+%\s*\d+$/);
  await expect(top).toContainText("nursing");
  await expect(answer.getByText(/No passage of the knowledge store held/)).toHaveCount(0);
  await expect(
    answer.getByText(/^Estimated chance that the answer is right: 0\.\d+, against .*: it reaches it\.$/),
  ).toBeVisible();
  await expect(answer.getByText(/^Outcome: Answered\. The answer quotes the passage marked “Used”\./)).toBeVisible();
  // The threshold it names is one click from where it is set.
  await expect(answer.getByRole("link", { name: "Minimum Retrieval Confidence" })).toHaveAttribute(
    "href",
    "/northfield/agent/admissions/controls/quality-check",
  );
}

/** Test Questions shows the question added from the answer; it is deleted again, leaving the agent's questions as they were. */
async function seeAndRemoveTestQuestion(page: Page, question: string, marker: string) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Test Questions");
  await page.goto(`${TEST_QUESTIONS}?search=${marker}`);
  const row = page.getByRole("table", { name: "Test questions" }).getByRole("row").filter({ hasText: question });
  await expect(row).toContainText("Answered");
  await expect(row).toContainText("/demo-site/programs/");
  await row.getByRole("link", { name: `Delete “${question}”` }).click();
  await page
    .getByRole("form", { name: "Delete test question" })
    .getByRole("button", { name: "Delete test question" })
    .click();
  await expect(toast(page)).toContainText("Test question deleted");
}

test.describe("with JavaScript", () => {
  test("the list filtered by its address, a transcript, its trace, and an answer made a test question", async ({
    signedInPage: page,
  }) => {
    const marker = unique();
    const { conversation } = await converse(page.request, marker);

    await page.goto(`${LIST}?search=${marker}&outcome=answered&sort=latest`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Conversations");
    await expect(page.getByLabel("Search", { exact: true })).toHaveValue(marker);
    await expect(page.getByLabel("Outcome", { exact: true })).toHaveValue("answered");
    const rows = page.getByRole("table", { name: "Conversations" }).getByRole("row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText(QUESTION);
    await expect(rows.nth(1)).toContainText("1 answered");
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      `${LIST}/export?search=${marker}&outcome=answered&sort=latest`,
    );
    await expectNoSeriousAxeViolations(page);

    // Applying and clearing filters leaves the keyboard where it was, not on the page's body.
    await page.getByLabel("Reviewed", { exact: true }).selectOption({ label: "Not reviewed" });
    await page.getByLabel("Search", { exact: true }).press("Enter");
    await expect(page).toHaveURL(/reviewed=false/);
    await expect(page.getByLabel("Search", { exact: true })).toBeFocused();
    await page.getByLabel("Reviewed", { exact: true }).selectOption({ label: "Reviewed" });
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/reviewed=true/);
    await expect(page.getByRole("button", { name: "Apply" })).toBeFocused();
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(new RegExp(`${LIST}$`));
    await expect(page.getByRole("button", { name: "Apply" })).toBeFocused();

    // The nav leads here; the client's list holds the conversation too.
    await page
      .getByRole("navigation", { name: "Agent navigation" })
      .getByRole("link", { name: "Conversations" })
      .click();
    await expect(page).toHaveURL(new RegExp(`${LIST}$`));
    await page.goto(`/northfield/conversations?search=${marker}`);
    await expect(page.getByRole("table", { name: "Conversations" }).getByRole("row").nth(1)).toContainText(
      "admissions",
    );
    await page.goto(`${LIST}?search=${marker}`);

    await page
      .getByRole("table", { name: "Conversations" })
      .getByRole("link", { name: /^Open the conversation started/ })
      .click();
    // The conversation carries the list's filters, so "← Conversations" goes back to the same rows.
    await expect(page).toHaveURL(new RegExp(`${LIST}/${conversation}\\?search=${marker}$`));
    await expect(page.getByRole("link", { name: "← Conversations" })).toHaveAttribute(
      "href",
      `${LIST}?search=${marker}`,
    );
    await expect(page.getByRole("list", { name: "Messages" }).getByRole("listitem").first()).toContainText(marker);
    await expect(nursingAnswer(page).getByRole("list", { name: "Sources" }).getByRole("link").first()).toHaveAttribute(
      "href",
      /\/demo-site\/programs\/$/,
    );
    await readTheTrace(page);
    await expectNoSeriousAxeViolations(page);
    // At 1280 px every column of the passages is in view, "Used" among them (when the page was
    // indexed stands under its address), and so are Lower and Exclude.
    await page.setViewportSize({ width: 1280, height: 800 });
    const passages = nursingAnswer(page).getByRole("table", { name: "Passages retrieved" });
    expect(await passages.evaluate((table) => table.scrollWidth <= table.parentElement!.clientWidth)).toBe(true);
    await expect(passages.getByRole("row").nth(1)).toContainText(/Indexed \d\d\/\d\d\/\d{4} \| \d\d:\d\d \(UTC\)/);
    const frame = (await passages.locator("xpath=..").boundingBox())!;
    const lower = (await passages
      .getByRole("button", { name: /^Lower/ })
      .first()
      .boundingBox())!;
    expect(lower.x + lower.width).toBeLessThanOrEqual(frame.x + frame.width);

    const answer = nursingAnswer(page);
    await answer.getByRole("button", { name: "Mark reviewed" }).click();
    await expect(toast(page)).toContainText("Marked reviewed");
    await expect(answer.getByText("Reviewed", { exact: true })).toBeVisible();
    // The keyboard stays on the button pressed; the list's filters stay in the address, for the way back.
    await expect(answer.getByRole("button", { name: "Mark not reviewed" })).toBeFocused();
    await expect(page).toHaveURL(new RegExp(`${LIST}/${conversation}\\?search=${marker}#answer-\\d+-review$`));
    await expect(page.getByRole("link", { name: "← Conversations" })).toHaveAttribute(
      "href",
      `${LIST}?search=${marker}`,
    );

    await answer.getByText("Add as test question", { exact: true }).click();
    const form = answer.getByRole("form", { name: "Add as test question" });
    await expect(form.getByLabel("Question")).toHaveValue(QUESTION);
    await expect(form.getByLabel("Expected outcome")).toHaveValue("answered");
    await expect(form.getByLabel("Expected source", { exact: true })).toHaveValue(/\/demo-site\/programs\/$/);
    const question = `${QUESTION} (${marker})`;
    await form.getByLabel("Question").fill(question);
    await form.getByRole("button", { name: "Add test question" }).click();
    await expect(toast(page)).toContainText("Test question added");
    // Saved, the form closes and starts again from the answer, the keyboard on its disclosure.
    await expect(form).toBeHidden();
    await expect(answer.getByText("Add as test question", { exact: true })).toBeFocused();
    await toast(page).getByRole("link", { name: "Open Test Questions" }).click();
    await seeAndRemoveTestQuestion(page, question, marker);
  });

  test("a canned answer's trace says retrieval did not run, and a fallback's why it quotes nothing", async ({
    signedInPage: page,
  }) => {
    const agent = await agentWithNoGoTopic(page.request, "legal advice", "Please ask a lawyer.");
    const { conversation } = await converse(page.request, unique(), {
      triggerPoint: agent,
      questions: ["Can you give me legal advice?", "Do you have a swimming pool?"],
    });
    await page.goto(`/northfield/agent/${agent}/conversations/${conversation}`);

    const canned = await whyThisAnswer(page, "Please ask a lawyer.");
    await expect(
      canned.getByText(
        "Outcome: No-go canned response. Retrieval did not run: the No-Go topic “legal advice” matched.",
      ),
    ).toBeVisible();
    await expect(canned.getByText("Retrieval did not run: the No-Go topic matched.")).toBeVisible();
    await expect(canned.getByText(/Estimated chance|Retrieval found no passage|quotes the passage/)).toHaveCount(0);

    const fallback = page.locator("li[data-role=assistant]").last();
    await fallback.getByText("Why this answer", { exact: true }).click();
    await expect(
      fallback.getByText("Outcome: Fallback. The answer quotes nothing: retrieval found no passage for this question."),
    ).toBeVisible();
    await expect(fallback.getByText(/quotes the passage/)).toHaveCount(0);
    await expectNoSeriousAxeViolations(page);
  });

  test("a message of two questions is answered one after the other, and its trace names each", async ({
    signedInPage: page,
  }) => {
    const { conversation } = await converse(page.request, unique(), {
      questions: ["What is the application fee? When do campus tours leave?"],
    });
    await page.goto(`${LIST}/${conversation}`);
    const answer = page.locator("li[data-role=assistant]").last();
    await expect(answer).toContainText("$40");
    await expect(answer).toContainText("10 am");
    await answer.getByText("Why this answer", { exact: true }).click();
    await expect(
      answer.getByText(
        "Outcome: Answered. The message asked 2 questions: each was searched and answered on its own, in order.",
      ),
    ).toBeVisible();
    await expect(answer.getByRole("list", { name: "Questions asked" }).getByRole("listitem")).toHaveText([
      /^“What is the application fee\?”: Answered\. Estimated chance that it is right: 0\.\d+, against the Minimum Retrieval Confidence in force, 0\.\d+: it reaches it\.$/,
      /^“When do campus tours leave\?”: Answered\. Estimated chance that it is right: 0\.\d+, against the Minimum Retrieval Confidence in force, 0\.\d+: it reaches it\.$/,
    ]);
    await expect(
      answer.getByRole("table", { name: "Passages retrieved" }).getByRole("columnheader", { name: "Question" }),
    ).toBeVisible();
  });

  test("an answer that left one of its questions unanswered says so where the list counts it", async ({
    signedInPage: page,
  }) => {
    const marker = unique();
    const { conversation } = await converse(page.request, marker, {
      questions: ["What is the application fee? Is there parking for first-year students who bring a car?"],
    });
    await page.goto(`${LIST}?search=${marker}&outcome=fallback`);
    const row = page.getByRole("table", { name: "Conversations" }).getByRole("row").nth(1);
    // The answer of two questions is counted under both outcomes they had (the greeting's is a fallback too).
    await expect(row.locator("[data-outcome=answered]")).toHaveText("1 answered");
    await expect(row.locator("[data-outcome=fallback]")).toHaveText("2 fallback");
    await row.getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`${LIST}/${conversation}\\?`));
    const answer = page.locator("li[data-role=assistant]").last();
    await expect(answer.locator("[data-outcome]")).toHaveText(["Answered", "1 of 2 questions: Fallback"]);
  });

  test("Lower leaves the keyboard on the button the row still offers", async ({ signedInPage: page }) => {
    const agent = await agentOfItsOwn(page.request);
    const answered = await converse(page.request, unique(), { triggerPoint: agent });
    await page.goto(`/northfield/agent/${agent}/conversations/${answered.conversation}`);
    const answer = await whyThisAnswer(page, "The program admits 120 students each fall.");
    const row = answer.getByRole("table", { name: "Passages retrieved" }).getByRole("row").nth(1);
    await row.getByRole("button", { name: /^Lower/ }).click();
    await expect(toast(page)).toContainText(`is weighed down (penalty 0.5) in the answers of Agent ${agent}`);
    await expect(row).toContainText("Lowered now");
    await expect(row.getByRole("button", { name: /^Exclude/ })).toBeFocused();
  });

  test("the list says the order its rows are in", async ({ signedInPage: page }) => {
    const intro = page.getByText(/^What visitors asked /);
    await page.goto(LIST);
    await expect(intro).toContainText("what the assistant answered, latest first.");
    await page.goto(`${LIST}?sort=oldest`);
    await expect(intro).toContainText("what the assistant answered, oldest first.");
    await page.getByLabel("Sort", { exact: true }).selectOption({ label: "Most questions first" });
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(intro).toContainText("what the assistant answered, most questions first.");
  });

  test("a filter out of range is said beside it, with the rest of the page", async ({ signedInPage: page }) => {
    await page.goto(`${LIST}?from=yesterday&page_size=7&search=nursing`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Conversations");
    await expect(page.getByLabel("From (UTC day)", { exact: true })).toHaveAccessibleDescription(
      "Dates are YYYY-MM-DD",
    );
    await expect(page.getByLabel("Rows per page")).toHaveAccessibleDescription(
      "Choose 10, 20, 50 or 100 rows per page",
    );
    await expect(page.getByLabel("Search", { exact: true })).toHaveValue("nursing");
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveCount(0);
    await page.goto(`${LIST}/00000000-0000-4000-8000-000000000000`);
    await expect(page.getByText(/not found/i).first()).toBeVisible();
  });

  test("an agent nobody has chatted with says how conversations come; a search that finds none says so", async ({
    signedInPage: page,
  }) => {
    await page.goto("/shopharbor-outfitters/agent/shop/conversations");
    await expect(page.getByText("No conversations yet.")).toBeVisible();
    const table = page.getByRole("table", { name: "Conversations" });
    await expect(table).toContainText("No visitor has chatted with Shop Assistant (shop) yet.");
    await table.getByRole("link", { name: "AI Testing" }).click();
    await expect(page).toHaveURL(/\/shopharbor-outfitters\/agent\/shop\/bot-testing$/);

    await page.goto(`${LIST}?search=${unique()}`);
    await expect(page.getByText("0 conversations match these filters.")).toBeVisible();
    await expect(page.getByRole("table", { name: "Conversations" })).toContainText(
      "No conversations match these filters.",
    );
  });

  test("the demo's first visitors are there once the demo site is indexed: a lead, a fallback rated down", async ({
    signedInPage: page,
  }) => {
    const rows = page.getByRole("table", { name: "Conversations" }).locator("tbody tr");
    const parking = rows.filter({ hasText: "Is there parking for first-year students who bring a car?" });
    // They chat a few seconds after the site's indexing ends (this file's first step).
    await expect(async () => {
      await page.goto(`${LIST}?environment=stage&search=parking`);
      // Rated once answered: the visitors go one after the other, Maya's chat first.
      await expect(parking.filter({ hasText: "Unhelpful" })).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    // Its trace says which of the question's words no page held, and where pages are added.
    await parking.getByRole("link").first().click();
    const fallback = await whyThisAnswer(page, "published information");
    const keyWords = fallback.getByRole("table", { name: "Key words of the question" });
    await expect(keyWords.getByRole("row").filter({ hasText: "parking" })).toContainText("None");
    await expect(fallback.getByText(/^No passage of the knowledge store held .*“parking”/)).toBeVisible();
    await expect(fallback.getByRole("link", { name: "Open the AI Knowledge Store" })).toHaveAttribute(
      "href",
      "/northfield/agent/admissions/knowledge-store",
    );
    await page.goto(`${LIST}?environment=stage&lead=true&search=installments`);
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText("Can I pay it in monthly installments?");
    // Maya's first answer says what was searched: her question, not her name and address.
    await rows.getByRole("link").first().click();
    await page.getByText("Why this answer", { exact: true }).first().click();
    await expect(
      page.getByText("Searched for “What does tuition cost for out-of-state students?”, not the whole message"),
    ).toBeVisible();
    // The visitor who says hello first: a greeting back, counted apart from the one question they asked.
    await page.goto(`${LIST}?environment=stage&search=${encodeURIComponent("test scores")}`);
    await expect(rows).toHaveCount(1);
    await expect(rows.locator('[data-outcome="small_talk"]')).toHaveText("1 small talk");
    await rows.getByRole("link").first().click();
    await page.getByText("Why this answer", { exact: true }).first().click();
    await expect(
      page.getByText(
        "Outcome: Small-talk reply. Nothing was searched: the message was read as a greeting, which asks nothing of the knowledge store.",
      ),
    ).toBeVisible();
  });

  test("a visitor's comment of one long word wraps inside the transcript, which never scrolls sideways", async ({
    signedInPage: page,
  }) => {
    const marker = unique();
    const { conversation, answer, key } = await converse(page.request, marker);
    const rated = await page.request.post("/v1/chat/feedback", {
      data: { key, conversation_id: conversation, message_id: answer, rating: "down", comment: "W".repeat(500) },
    });
    expect(rated.ok()).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${LIST}/${conversation}`);
    await expect(nursingAnswer(page).getByText("Rated unhelpful")).toBeVisible();
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(sideways).toBe(0);
  });

  test("a client user reads a transcript and its trace, with nothing to change", async ({ page }) => {
    const { signIn } = await import("./fixtures");
    const marker = unique();
    const { conversation, answer, key } = await converse(page.request, marker);
    // The visitor's thumbs down, as the widget sends it.
    const rated = await page.request.post("/v1/chat/feedback", {
      data: {
        key,
        conversation_id: conversation,
        message_id: answer,
        rating: "down",
        comment: `Which campus? (${marker})`,
      },
    });
    expect(rated.ok()).toBe(true);
    await signIn(page, "client.user@example.com");
    await page.goto(`${LIST}?rating=down&search=${marker}`);
    await page
      .getByRole("table", { name: "Conversations" })
      .getByRole("link", { name: /^Open the conversation started/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`${LIST}/${conversation}\\?rating=down&search=${marker}$`));
    await expect(nursingAnswer(page).getByText("Rated unhelpful")).toBeVisible();
    await expect(nursingAnswer(page).getByText(`Which campus? (${marker})`)).toBeVisible();
    await readTheTrace(page);
    await expect(page.getByRole("button", { name: /^(Lower|Exclude|Mark reviewed|Add test question)/ })).toHaveCount(0);
    await expect(page.getByText("Add as test question")).toHaveCount(0);

    // Business Insights links an unhelpful answer to the client's transcript, at the answer itself.
    await page.goto(`/northfield/conversations/${conversation}#message-${answer}`);
    await expect(page.locator(`#message-${answer}`)).toContainText("The program admits 120 students each fall.");
    await expect(page.locator(`#message-${answer}`)).toBeInViewport();

    // A fallback's trace tells them what the store lacked, without the link to add pages they may not add.
    // (The demo's visitors chat a few seconds after this file's first step indexed the demo site.)
    const parking = page.getByRole("table", { name: "Conversations" }).getByRole("link");
    await expect(async () => {
      await page.goto(`${LIST}?environment=stage&search=parking`);
      await expect(parking).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await parking.click();
    const fallback = await whyThisAnswer(page, "published information");
    await expect(fallback.getByText(/^No passage of the knowledge store held .*“parking”/)).toBeVisible();
    await expect(fallback.getByRole("link", { name: "Open the AI Knowledge Store" })).toHaveCount(0);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the filters are a plain form, the trace opens, and a refused test question keeps what was typed", async ({
    signedInPage: page,
  }) => {
    const marker = unique();
    const { conversation } = await converse(page.request, marker);

    await page.goto(LIST);
    await page.getByLabel("Search", { exact: true }).fill(marker);
    await page.getByLabel("Outcome", { exact: true }).selectOption({ label: "Answered" });
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`search=${marker}`));
    await expect(page).toHaveURL(/outcome=answered/);
    const rows = page.getByRole("table", { name: "Conversations" }).getByRole("row");
    await expect(rows).toHaveCount(2);

    await rows.nth(1).getByRole("link").click();
    // The list's filters come along, for the way back.
    await expect(page).toHaveURL(new RegExp(`${LIST}/${conversation}\\?[^#]*search=${marker}[^#]*$`));
    await readTheTrace(page);

    const answer = nursingAnswer(page);
    await answer.getByText("Add as test question", { exact: true }).click();
    const form = answer.getByRole("form", { name: "Add as test question" });
    await form.getByLabel("Question").fill("");
    await form.getByLabel("Or type the expected source").fill("programs-guide.pdf");
    await form.getByRole("button", { name: "Add test question" }).click();
    // The server's answer: the message beside the field, everything typed still there.
    const refused = nursingAnswer(page).getByRole("form", { name: "Add as test question" });
    await expect(refused.getByLabel("Question")).toHaveAccessibleDescription("This field is required");
    // The answer comes back at the form, not at the page's top.
    await expect(refused.getByLabel("Question")).toBeInViewport();
    await expect(refused.getByLabel("Or type the expected source")).toHaveValue("programs-guide.pdf");
    await expect(refused.getByLabel("Expected outcome")).toHaveValue("answered");

    const question = `${QUESTION} (${marker})`;
    await refused.getByLabel("Question").fill(question);
    await refused.getByLabel("Or type the expected source").fill("");
    await refused.getByRole("button", { name: "Add test question" }).click();
    await expect(toast(page)).toContainText("Test question added");
    // Back at the control it was made with, the list's filters kept.
    await expect(page).toHaveURL(
      new RegExp(`${LIST}/${conversation}\\?[^#]*search=${marker}[^#]*#answer-\\d+-test-question$`),
    );
    await toast(page).getByRole("link", { name: "Open Test Questions" }).click();
    await seeAndRemoveTestQuestion(page, question, marker);
  });

  test("a page excluded from the trace is said to be left out of the next answer's candidates", async ({
    signedInPage: page,
  }) => {
    const agent = await agentOfItsOwn(page.request);
    const answered = await converse(page.request, unique(), { triggerPoint: agent });
    await page.goto(`/northfield/agent/${agent}/conversations/${answered.conversation}`);
    const answer = await whyThisAnswer(page, "The program admits 120 students each fall.");
    await answer
      .getByRole("table", { name: "Passages retrieved" })
      .getByRole("row")
      .nth(1)
      .getByRole("button", { name: /^Exclude/ })
      .click();
    await expect(toast(page)).toContainText(`is left out of the answers of Agent ${agent}`);
    // The page comes back to the button the row still offers (Exclude is gone), not to its top: the
    // browser opens "Why this answer" to show it.
    await expect(page).toHaveURL(/#answer-\d+-lower-1$/);
    await expect(page.locator("[id^=answer-][id$=-lower-1]")).toBeInViewport();
    // The trace is what was; beside it, what the rule does now, and only the button that would change it.
    const reopened = page
      .locator("li[data-role=assistant]")
      .filter({ hasText: "The program admits 120 students each fall." });
    const excludedRow = reopened
      .getByRole("table", { name: "Passages retrieved" })
      .getByRole("row")
      .filter({ hasText: "Excluded now" });
    // Every passage of the page says it (the rule is the page's).
    await expect(excludedRow.first()).toBeVisible();
    await expect(excludedRow.getByRole("button", { name: /^Exclude/ })).toHaveCount(0);
    await expect(excludedRow.first().getByRole("button", { name: /^Lower/ })).toHaveCount(1);

    // The same question again: the programs page is in no row, and the trace says which rule left it out.
    const again = await converse(page.request, unique(), { triggerPoint: agent });
    await page.goto(`/northfield/agent/${agent}/conversations/${again.conversation}`);
    const fallback = page.locator("li[data-role=assistant]").last();
    await fallback.getByText("Why this answer", { exact: true }).click();
    await expect(
      fallback.getByText(
        /^Outcome: Fallback\. The answer quotes nothing: .+ AI Finetuning left out pages holding the question's key words: see Controls that fired\.$/,
      ),
    ).toBeVisible();
    const rule = fallback.getByRole("listitem").filter({ hasText: /^Left out by AI Finetuning: / });
    await expect(rule).toHaveText(
      /^Left out by AI Finetuning: \^http\S+\/demo-site\/programs\/\$ \(penalty 1\)\. Pages it left out that hold the question's key words: http\S+\/demo-site\/programs\/\.$/,
    );
    await expect(rule.getByRole("link")).toHaveAttribute("href", /\/demo-site\/programs\/$/);
    await expect(fallback.getByText("None fired.")).toHaveCount(0);
    await expect(fallback.getByRole("row").filter({ hasText: "/demo-site/programs/" })).toHaveCount(0);
    await expect(fallback.getByRole("link", { name: "Review the rules in AI Finetuning" })).toHaveAttribute(
      "href",
      "/northfield/ai-finetuning/ai-finetuning",
    );
  });
});
