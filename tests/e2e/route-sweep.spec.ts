import type { Page } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, signIn, test } from "./fixtures";
import { BASE_URL } from "./ports";

/**
 * The console's finish over every route, as an operator first sees it at 1280 × 800: no page
 * scrolls sideways, every breadcrumb link opens a page, axe finds nothing serious, and every
 * menu or popover shows all of its items, unclipped and clickable.
 *
 * A sweep, not a journey: it reads 57 pages and takes minutes on a busy 2-core machine, so it
 * runs in its own lane (`npm run test:route-sweep`, in CI after `npm test`; decision 038).
 */
const AGENT = "/northfield/agent/admissions";
const ROUTES = [
  "/",
  "/clients",
  "/clients/new-client",
  "/clients/import",
  "/users",
  "/agent/admissions",
  "/jobs",
  "/jobs/queues",
  "/jobs/queues/purge-refresh-tokens",
  "/northfield",
  "/northfield/build-agent",
  "/northfield/build-agent?id=1",
  "/northfield/manage",
  "/northfield/access-control",
  "/northfield/history",
  "/northfield/admin-downloads",
  "/northfield/controls",
  "/northfield/controls/ai-personality",
  "/northfield/controls/sensitive-topics",
  "/northfield/controls/no-go-topics",
  "/northfield/controls/quality-check",
  "/northfield/controls/test-questions",
  "/northfield/ai-finetuning/ai-finetuning",
  "/northfield/ai-finetuning/input-prompts",
  "/northfield/ai-finetuning/smart-probe",
  "/northfield/ai-training/websites",
  "/northfield/ai-training/files",
  "/northfield/personalization",
  "/northfield/user-profiling",
  "/northfield/student-profiling",
  "/shopharbor-outfitters",
  AGENT,
  `${AGENT}/knowledge-store`,
  `${AGENT}/knowledge-store/websites`,
  `${AGENT}/knowledge-store/websites/urls`,
  `${AGENT}/knowledge-store/files`,
  `${AGENT}/knowledge-store/smart-probing`,
  `${AGENT}/knowledge-store/program-data-model`,
  `${AGENT}/controls`,
  `${AGENT}/controls/ai-personality`,
  `${AGENT}/controls/sensitive-topics`,
  `${AGENT}/controls/no-go-topics`,
  `${AGENT}/controls/quality-check`,
  `${AGENT}/controls/test-questions`,
  `${AGENT}/user-profiling`,
  `${AGENT}/user-profiling/user-profile-data-model`,
  `${AGENT}/user-profiling/student-profile-data-model`,
  `${AGENT}/personalization`,
  `${AGENT}/personalization/user-profile-data-model`,
  `${AGENT}/personalization/program-profile-data-model`,
  `${AGENT}/integrations`,
  `${AGENT}/appearance`,
  `${AGENT}/bot-testing`,
  `${AGENT}/admin-downloads`,
  "/backoffice/northfield/dashboard",
  "/backoffice/northfield/user_profiles",
];

/** How far the page scrolls sideways (0 when it fits). */
const sidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * Opens every `<details>` whose panel floats (a menu or popover) and answers the items that are
 * not really there for a pointer: outside the viewport once the page is scrolled to them, or
 * hidden under something else (clipped by a container, covered by another element).
 */
async function unreachableMenuItems(page: Page) {
  // Numbered once up front: opening one changes what an `:not([open])` locator would count.
  const count = await page.locator("details").evaluateAll((all) => {
    all.forEach((details, index) => details.setAttribute("data-finish-check", String(index)));
    return all.length;
  });
  const problems: string[] = [];
  for (let index = 0; index < count; index++) {
    const menu = page.locator(`details[data-finish-check="${index}"]`);
    const summary = menu.locator(":scope > summary");
    if ((await menu.getAttribute("open")) !== null || !(await summary.isVisible())) continue;
    const floats = await menu.evaluate((details) =>
      [...details.children].some(
        (child) => child.tagName !== "SUMMARY" && /absolute|fixed/.test(getComputedStyle(child).position),
      ),
    );
    if (!floats) continue;
    // A menu under an open drawer (the top bar's, the page's behind it) is out of play until the drawer closes.
    await summary.scrollIntoViewIfNeeded();
    const coveredByDialog = await summary.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit !== null && hit !== element && !element.contains(hit);
    });
    if (coveredByDialog) continue;
    await summary.click();
    const label = (await summary.textContent())?.trim() || `menu ${index}`;
    const unreachable = await menu.evaluate((details) => {
      const items = [
        ...details.querySelectorAll<HTMLElement>("a[href], button, input:not([type=hidden]), select, textarea"),
      ].filter((item) => !item.closest("summary"));
      return items.flatMap((item) => {
        // A long menu scrolls within itself: bring the item into its own panel's view first.
        for (let box = item.parentElement; box && box !== details; box = box.parentElement) {
          if (box.scrollHeight > box.clientHeight && /auto|scroll/.test(getComputedStyle(box).overflowY)) {
            box.scrollTop = item.offsetTop - box.offsetTop - box.clientHeight / 2;
          }
        }
        const box = item.getBoundingClientRect();
        // Then into the viewport by scrolling the page alone, never the containers around the menu.
        if (box.top < 0 || box.bottom > window.innerHeight) window.scrollBy(0, box.top - window.innerHeight / 2);
        const now = item.getBoundingClientRect();
        const x = now.left + now.width / 2;
        const y = now.top + now.height / 2;
        const hit = document.elementFromPoint(x, y);
        const reachable = now.width > 0 && now.height > 0 && hit !== null && (hit === item || item.contains(hit));
        return reachable ? [] : [item.textContent?.trim() || item.getAttribute("aria-label") || item.tagName];
      });
    });
    for (const item of unreachable) problems.push(`${label}: ${item}`);
    await menu.evaluate((details) => details.removeAttribute("open"));
  }
  return problems;
}

/**
 * The route sweep only reads pages, so each worker signs in once and reuses one page for every
 * route it checks. A fresh context per route spent about 1.7 s of a slow machine's time on more
 * than the check itself: the context and the sign-in, and every script of the console fetched and
 * compiled again with an empty cache (a route's load and hydration took about 1 s cold against
 * 0.35 s warm, its axe scan 0.95 against 0.55 s). Each route still navigates afresh.
 */
const sweep = test.extend<object, { sweepPage: Page }>({
  sweepPage: [
    async ({ browser }, provide) => {
      const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await signIn(page);
      await provide(page);
      await context.close();
    },
    { scope: "worker" },
  ],
});

sweep.describe("every console route at 1280 × 800", () => {
  // axe over a full page takes a while on a busy machine.
  sweep.setTimeout(90_000);

  for (const route of ROUTES) {
    sweep(
      `${route}: no sideways scroll, breadcrumb links answer 200, no serious axe violation, every menu item reachable`,
      async ({ sweepPage: page }) => {
        await checkRoute(page, route);
      },
    );
  }

  sweep("a website's View Links drawer", async ({ sweepPage: page }) => {
    await page.goto(`${AGENT}/knowledge-store/websites`);
    const viewLinks = await page.locator("a", { hasText: "View Links" }).first().getAttribute("href");
    await checkRoute(page, `${AGENT}/knowledge-store/websites/${viewLinks!.replace(/.*\//, "")}`);
  });
});

async function checkRoute(page: Page, route: string) {
  const response = await page.goto(route);
  expect(response?.status(), route).toBe(200);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", undefined, {
    timeout: 10_000,
  });
  const failures: string[] = [];

  const overflow = await sidewaysScroll(page);
  if (overflow > 0) failures.push(`scrolls ${overflow} px sideways`);

  const crumbs = await page
    .getByRole("navigation", { name: "Breadcrumb" })
    .getByRole("link")
    .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  for (const href of crumbs) {
    const status = (await page.request.get(href)).status();
    if (status !== 200) failures.push(`breadcrumb ${href} answers ${status}`);
  }

  for (const item of await unreachableMenuItems(page)) failures.push(`menu item out of reach: ${item}`);
  await expectNoSeriousAxeViolations(page).catch((error: Error) =>
    failures.push(error.message.split("\n").slice(0, 12).join(" ")),
  );
  expect(failures).toEqual([]);
}
