import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type Page } from "@playwright/test";
import { E2E } from "./ports";
import { SESSION_COOKIE, sessionStorageFor } from "../../app/server/session.server";

/**
 * What a browser's post from one of the console's own pages says of where it comes from: the
 * console refuses a signed-in post that says nothing (docs/decisions/016).
 */
export const SAME_ORIGIN_POST = { "sec-fetch-site": "same-origin" };

/** Signs in through the development sign-in form's endpoint, sharing cookies with the page. */
export async function signIn(page: Page, email = "admin@example.com") {
  const response = await page.request.post("/login", {
    form: { intent: "dev", email, redirectTo: "/" },
    headers: SAME_ORIGIN_POST,
  });
  expect(response.ok()).toBe(true);
}

/**
 * Ends the page's session as a revoked or expired sign-in does: the cookie still names its user,
 * but neither token is any good, so the next request's refresh fails. Sealed with the e2e server's
 * session secret (start-servers.ts).
 */
export async function endSession(page: Page) {
  const storage = sessionStorageFor({ config: { sessionSecrets: ["e2e-session-secret"] }, secure: false } as never);
  const cookies = await page.context().cookies();
  const current = cookies.find((cookie) => cookie.name === SESSION_COOKIE);
  if (!current) throw new Error("the page has no session to end");
  const session = await storage.getSession(`${current.name}=${current.value}`);
  session.set("user_token", "ended");
  session.set("refresh_token", "ended");
  const sealed = (await storage.commitSession(session)).split(";")[0].slice(`${SESSION_COOKIE}=`.length);
  await page.context().addCookies([{ ...current, value: sealed }]);
}

/** Chooses who the local OpenID provider signs in as. */
export async function setGoogleIdentity(email: string, name = "") {
  const response = await fetch(`http://127.0.0.1:${E2E.controlPort}/identity`, {
    method: "PUT",
    body: JSON.stringify({ email, name }),
  });
  if (!response.ok) throw new Error("could not set the provider's identity");
}

/**
 * axe's serious and critical findings on the page and its same-origin frames (the chat preview).
 * Legacy mode runs axe.run in the page itself instead of finishing each scan in a new blank page,
 * and only violations are gathered (axe's documented way to skip the selectors of what passed):
 * a scan takes about a third of the time, and the console has no cross-origin frame that legacy
 * mode would leave out (decision 038).
 */
export async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ["violations"] })
    .analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

export const test = base.extend<{ signedInPage: Page }>({
  signedInPage: async ({ page }, provide) => {
    await signIn(page);
    await provide(page);
  },
});

/**
 * Opens `path` with its scripts held back, as on a slow connection: the page is shown and can be
 * used before it hydrates. The answer lets them through and waits until the page has hydrated.
 */
export async function openWithScriptsHeld(page: Page, path: string) {
  let release = () => {};
  const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/build/**/*.js", async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  await page.goto(path, { waitUntil: "commit" });
  return async (whileHydrating = async () => {}) => {
    release();
    await whileHydrating();
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await page.unrouteAll();
  };
}

export { expect };
