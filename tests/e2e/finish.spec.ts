import { expect, expectNoSeriousAxeViolations, test } from "./fixtures";

/**
 * The console's finish where a journey has to act: Appearance's trigger-point selector and its
 * preview, and the accessibility scan shown to find what it should. The sweep that reads every
 * route is `route-sweep.spec.ts`, a lane of its own.
 */
const AGENT = "/northfield/agent/admissions";

test("Appearance: a trigger-point selector at client level, and every page says which trigger point it edits", async ({
  signedInPage: page,
}) => {
  await page.goto("/northfield/appearance");
  const selector = page.getByLabel("Trigger point", { exact: true });
  await expect(selector.locator("option").first()).toHaveText("Default");
  await expect(selector.locator("option", { hasText: "admissions" })).toHaveCount(1);
  await expect(selector).toHaveValue("");
  await selector.selectOption("admissions");
  await expect(page).toHaveURL(/\/northfield\/appearance\?trigger_point=admissions$/);
  await expect(page.frameLocator('iframe[title="Chat preview"]').locator("body")).toBeAttached();
  await expect(page.locator('iframe[title="Chat preview"]')).toHaveAttribute(
    "src",
    "/northfield/appearance/preview?trigger_point=admissions",
  );

  await page.goto(`${AGENT}/appearance`);
  await expect(page.getByLabel("Trigger point", { exact: true })).toHaveCount(0);
  await expect(page.getByText("Trigger point: admissions")).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the appearance preview says why it is empty and how to see the widget", async ({ signedInPage: page }) => {
    await page.goto(`${AGENT}/appearance`);
    await expect(
      page.frameLocator('iframe[title="Chat preview"]').getByText(/The preview is empty because JavaScript is off/),
    ).toBeVisible();
  });
});

test("the accessibility check finds a serious violation on the page and inside the chat preview", async ({
  signedInPage: page,
}) => {
  await page.goto(`${AGENT}/appearance`);
  const preview = page.frameLocator('iframe[title="Chat preview"]');
  await expect(preview.locator("body")).toBeAttached();
  await expectNoSeriousAxeViolations(page);

  // A button with no name is a critical violation (button-name): first on the page, then in the frame.
  await page
    .locator("body")
    .evaluate((body) => body.append(Object.assign(document.createElement("button"), { id: "unnamed" })));
  await expect(expectNoSeriousAxeViolations(page)).rejects.toThrow(/button-name/);

  await page.locator("#unnamed").evaluate((button) => button.remove());
  // The preview reloads when another journey changes this agent's appearance (the page follows
  // changes as they happen), which takes the added button with it: add it again until a scan sees it.
  await expect(async () => {
    await preview.locator("body").evaluate((body) => {
      if (!body.querySelector("#unnamed-in-frame"))
        body.append(Object.assign(body.ownerDocument.createElement("button"), { id: "unnamed-in-frame" }));
    });
    await expect(expectNoSeriousAxeViolations(page)).rejects.toThrow(/button-name/);
  }).toPass({ timeout: 30_000 });
});
