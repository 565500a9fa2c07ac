import type { Page } from "@playwright/test";
import { expect, expectNoSeriousAxeViolations, test } from "./fixtures";

const AGENT_HOME = "/northfield/agent/admissions";
const CARD_TITLES = [
  "Chat",
  "Email",
  "Marketing Tools",
  "Agent Chat",
  "APIs",
  "Enrollment AI",
  "Agent Memory",
  "RAG based Q&A",
  "Accuracy & Controls",
  "Student Profiler",
  "Program Recommendations & Personalization",
  "Lead Capture & Scoring",
  "Business Analytics & Feedback Loop",
  "AI Knowledge Store",
  "User Profile Store",
  "Lead Store",
];

const diagram = (page: Page) => page.getByRole("main");
const card = (page: Page, title: string) => diagram(page).getByRole("link", { name: title, exact: true });

test.describe("architecture diagram", () => {
  test("shows every card of the spec, navigates, and passes axe", async ({ signedInPage: page }) => {
    await page.goto(AGENT_HOME);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Admissions Assistant architecture");
    for (const title of ["Students", "University Systems", ...CARD_TITLES]) {
      await expect(diagram(page).getByText(title, { exact: true }), title).toBeVisible();
    }
    await expectNoSeriousAxeViolations(page);

    await card(page, "Accuracy & Controls").click();
    await expect(page).toHaveURL(/\/northfield\/agent\/admissions\/controls$/);
  });

  test("business analytics opens the client's dashboard in a new window", async ({ signedInPage: page }) => {
    await page.goto(AGENT_HOME);
    const analytics = card(page, "Business Analytics & Feedback Loop");
    await expect(analytics).toHaveAttribute("target", "_blank");
    const href = await analytics.getAttribute("href");
    expect(href).toContain("/dashboard");
    expect(href).toContain("triggerPoint=admissions");
  });

  test("a card's tooltip appears on hover and on focus, and describes the card", async ({ signedInPage: page }) => {
    await page.goto(AGENT_HOME);
    const profiler = card(page, "Student Profiler");
    const tooltipId = await profiler.getAttribute("aria-describedby");
    expect(tooltipId).toBeTruthy();
    const tooltip = page.locator(`[id="${tooltipId}"]`);
    await expect(tooltip).toBeHidden();
    await profiler.hover();
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText("Builds a profile of each student");

    await page.mouse.move(0, 0);
    await expect(tooltip).toBeHidden();
    const memory = card(page, "Agent Memory");
    await memory.focus();
    const memoryTooltip = page.locator(`[id="${await memory.getAttribute("aria-describedby")}"]`);
    await expect(memoryTooltip).toBeVisible();
    await expect(memory).toHaveAccessibleDescription(/Long-term memory/);
    await page.keyboard.press("Escape");
    await expect(memoryTooltip).toBeHidden();
  });

  test("the global route shows the diagram for the agent in the path and sends section cards to the client list", async ({
    signedInPage: page,
  }) => {
    await page.goto("/agent/admissions");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("admissions");
    for (const title of CARD_TITLES) await expect(diagram(page).getByText(title, { exact: true }), title).toBeVisible();
    await expect(card(page, "Accuracy & Controls")).toHaveAttribute("href", "/clients");
    await expect(card(page, "Accuracy & Controls")).toHaveAccessibleDescription(/No client is selected/);
    await expect(card(page, "Business Analytics & Feedback Loop")).toHaveAttribute("href", "/clients");
    expect(await page.evaluate(() => localStorage.getItem("selectedAgent"))).toBe("admissions");
    await expectNoSeriousAxeViolations(page);
  });
});

test.describe("architecture diagram without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the server-rendered cards show and navigate", async ({ signedInPage: page }) => {
    await page.goto(AGENT_HOME);
    for (const title of CARD_TITLES) await expect(diagram(page).getByText(title, { exact: true }), title).toBeVisible();
    await card(page, "Accuracy & Controls").click();
    await expect(page).toHaveURL(/\/northfield\/agent\/admissions\/controls$/);
  });
});
