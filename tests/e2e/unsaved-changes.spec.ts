import type { Dialog, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/*
 * Unsaved edits are not lost by leaving: a link, the trigger point, a drawer's Escape or a reload
 * asks first (the LeaveGuard behind every save bar). Nothing here saves, so the tests share the
 * server's data freely.
 */
const LEAVE_QUESTION = "You have unsaved changes. Leave this page and lose them?";

async function hydrated(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

/** Answers the next dialog, and says what it asked. */
function answerNextDialog(page: Page, accept: boolean) {
  return new Promise<Dialog>((resolve) => {
    page.once("dialog", async (dialog) => {
      resolve(dialog);
      if (accept) await dialog.accept();
      else await dialog.dismiss();
    });
  });
}

test("a link asks before unsaved edits are dropped: staying keeps them, leaving goes", async ({
  signedInPage: page,
}) => {
  await page.goto("/northfield/agent/admissions/controls/ai-personality");
  await hydrated(page);
  const field = page.getByLabel("Chatbot Personality");
  await field.fill("Typed and not saved yet");

  const asked = answerNextDialog(page, false);
  await page.getByRole("link", { name: "Integrations" }).first().click();
  expect((await asked).message()).toBe(LEAVE_QUESTION);
  await expect(page).toHaveURL(/\/controls\/ai-personality$/);
  await expect(field).toHaveValue("Typed and not saved yet");

  const left = answerNextDialog(page, true);
  await page.getByRole("link", { name: "Integrations" }).first().click();
  await left;
  await expect(page).toHaveURL(/\/integrations$/);
});

test("a clean form leaves without a question, and saving is not leaving", async ({ signedInPage: page }) => {
  let dialogs = 0;
  page.on("dialog", async (dialog) => {
    dialogs += 1;
    await dialog.dismiss();
  });
  await page.goto("/northfield/agent/studentsuccess/controls/quality-check");
  await hydrated(page);
  await page.getByRole("link", { name: "Integrations" }).first().click();
  await expect(page).toHaveURL(/\/integrations$/);

  await page.goto("/northfield/agent/studentsuccess/controls/quality-check");
  await hydrated(page);
  // A refused save comes back to the same form, asked nothing.
  await page.getByRole("spinbutton", { name: "Minimum Retrieval Confidence" }).fill("7");
  await page.getByTestId("save-bar").getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("spinbutton", { name: "Minimum Retrieval Confidence" })).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  expect(dialogs).toBe(0);
});

test("closing a drawer with Escape asks when its form has unsaved edits", async ({ signedInPage: page }) => {
  await page.goto("/northfield/agent/admissions/integrations?link=salesforce");
  await hydrated(page);
  const drawer = page.getByRole("dialog");
  await drawer.getByLabel("Name", { exact: true }).fill("Typed and not saved yet");

  const asked = answerNextDialog(page, false);
  await page.keyboard.press("Escape");
  expect((await asked).message()).toBe(LEAVE_QUESTION);
  await expect(drawer).toBeVisible();
  await expect(drawer.getByLabel("Name", { exact: true })).toHaveValue("Typed and not saved yet");
});

test("a reload asks the browser's own question", async ({ signedInPage: page }) => {
  await page.goto("/northfield/agent/admissions/controls/ai-personality");
  await hydrated(page);
  await page.getByLabel("Chatbot Personality").fill("Typed and not saved yet");
  const asked = answerNextDialog(page, false);
  // Chromium asks before unloading only a page the user has interacted with, as the typing did.
  void page.reload().catch(() => {});
  expect((await asked).type()).toBe("beforeunload");
  await expect(page.getByLabel("Chatbot Personality")).toHaveValue("Typed and not saved yet");
});
