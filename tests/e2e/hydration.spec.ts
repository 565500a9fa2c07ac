import { expect, SAME_ORIGIN_POST, test } from "./fixtures";

/**
 * The server renders in UTC and in English; an operator's browser may be anywhere. Any text that
 * depends on the zone or the language differs between the two renders, and React then throws the
 * server's page away and renders it again in the browser: what was typed or opened while the
 * scripts loaded is lost, and the console logs a minified hydration error.
 */
test.use({ timezoneId: "Pacific/Auckland", locale: "de-DE" });

const SHOP_APPEARANCE = "/shopharbor-outfitters/agent/shop/appearance";

const SCREENS = [
  "/",
  "/users",
  "/northfield",
  "/northfield/access-control",
  "/northfield/admin-downloads",
  "/northfield/history",
  "/northfield/conversations",
  "/backoffice/northfield/dashboard",
  "/northfield/agent/admissions/student-profiling",
  "/northfield/ai-training/websites",
  "/northfield/agent/admissions",
  "/northfield/agent/admissions/appearance",
  "/northfield/agent/admissions/bot-testing",
  "/northfield/agent/admissions/controls",
  "/northfield/agent/admissions/controls/test-questions",
  "/northfield/agent/admissions/controls/quality-check",
  SHOP_APPEARANCE,
];

test("a browser in another time zone and language takes over every screen without re-rendering it", async ({
  signedInPage: page,
}) => {
  // A push gives Appearance its "Last pushed" time, the one date that screen shows. The shop's
  // agent: no other journey reads its production values. A push needs something to push: one
  // setting of this journey's own is saved first (a save keeps the settings it is not sent).
  const saved = await page.request.post(SHOP_APPEARANCE, {
    form: { input_placeholder: "Ask the shop (hydration)" },
    headers: SAME_ORIGIN_POST,
    maxRedirects: 0,
  });
  expect(saved.status()).toBe(302);
  await page.goto(`${SHOP_APPEARANCE}?confirm=push`);
  await page.getByRole("form", { name: "Push to production" }).getByRole("button").click();
  // When stage fails test questions that production passes, the push asks once more.
  const again = page.getByRole("button", { name: "Push anyway" });
  const pushed = page.getByText("Last pushed to production");
  await expect(pushed.or(again)).toBeVisible();
  if (await again.isVisible()) await again.click();
  await expect(pushed).toBeVisible();

  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
  for (const screen of SCREENS) {
    const response = await page.goto(screen);
    expect(response?.status(), screen).toBe(200);
    await expect(page.locator("html"), screen).toHaveAttribute("data-hydrated", "true");
  }
  expect(errors).toEqual([]);
});
