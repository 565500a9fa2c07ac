import { EVIDENCE_THRESHOLDS } from "@contract";
import type { Page } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, test } from "./fixtures";

/*
 * The Quality Check's evidence for its threshold, without JavaScript: empty until the agent's test
 * questions have run, then a chart and the table behind it, today's value marked. The shop agent
 * is this spec's own: no other spec adds test questions to it. Its Default settings may be saved by
 * another spec meanwhile, so the agent's own value is saved first, and counts that other runs
 * could add to are matched by their form rather than their figure.
 */
const AGENT = "/shopharbor-outfitters/agent/shop/controls";
const QUALITY = `${AGENT}/quality-check`;
const toast = (page: Page) => page.getByTestId("toast");
// The second test reads what the first made.
test.describe.configure({ mode: "serial" });

const evidenceTable = (page: Page) =>
  page.getByRole("table", { name: "Evidence at each Minimum Retrieval Confidence" });

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the evidence says how to get some, then replays the run at every value with today's marked", async ({
    signedInPage: page,
  }) => {
    test.setTimeout(90_000);
    await page.goto(QUALITY);
    await page.getByLabel("Minimum Retrieval Confidence").fill("0.3");
    await page.getByTestId("save-bar").getByRole("button", { name: "Save" }).click();
    await expect(toast(page)).toContainText("Hallucination Accuracy & Quality Check saved for Shop Assistant.");

    const evidence = page.getByRole("region", { name: "Evidence for the threshold" });
    await expect(evidence.getByRole("heading", { level: 2 })).toHaveText("Evidence for the threshold");
    await expect(evidence).toContainText("Nothing to replay yet.");
    await expect(evidenceTable(page)).toHaveCount(0);
    await evidence.getByRole("link", { name: "Run the test questions" }).click();
    await expect(page).toHaveURL(new RegExp(`${AGENT}/test-questions$`));

    const question = `Is there a velodrome on Mars ${Date.now().toString(36)}?`;
    await page.getByLabel("Question", { exact: true }).fill(question);
    await page.getByLabel("Expected outcome").selectOption({ label: "Fallback" });
    await page.getByRole("button", { name: "Add question" }).click();
    await page.getByRole("button", { name: "Run in stage" }).click();
    await expect(page.locator("[data-status=done]")).toBeVisible({ timeout: 45_000 });

    await page.goto(QUALITY);
    await expect(evidence).toContainText(/replayed on \d+ test results? and 0 rated answers/);
    const rows = evidenceTable(page).getByRole("row");
    await expect(rows).toHaveCount(1 + EVIDENCE_THRESHOLDS.length);
    const headers = evidenceTable(page).getByRole("columnheader");
    await expect(headers).toHaveText(["Minimum Retrieval Confidence", "Answered", "Fallback", "Pass"]);
    // The shop has no knowledge: the question gets the fallback at every value, as it expects.
    const today = rows.filter({ hasText: "(today)" });
    await expect(today).toHaveCount(1);
    await expect(today.getByRole("rowheader")).toHaveText("0.3 (today)");
    await expect(today.getByRole("cell")).toHaveText(["0", /^[1-9]\d*$/, /^([1-9]\d*) of \1$/]);
    await expect(rows.filter({ hasText: "0.9" }).getByRole("rowheader")).toHaveText("0.9");
    await expect(evidence.getByRole("img")).toHaveAttribute(
      "aria-label",
      /Today's value is 0\.3: 0 answered, \d+ fallback, \d+ passed\./,
    );
    await expect(evidence).toContainText("counts as not passed at every value");
  });
});

test("with JavaScript, the chart and the table behind it pass the accessibility checks", async ({
  signedInPage: page,
}) => {
  await page.goto(QUALITY);
  await expect(evidenceTable(page)).toBeVisible();
  await expect(page.getByRole("region", { name: "Evidence for the threshold" }).getByRole("img")).toBeVisible();
  await expectNoSeriousAxeViolations(page);
});
