import { expect, test } from "./fixtures";

test.use({ javaScriptEnabled: false });

test("sign-in without JavaScript: errors come back from the server next to the field", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page.getByText("Enter a valid email address")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("not-an-email");

  await page.getByLabel("Email").fill("client.user@example.com");
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page.getByRole("navigation", { name: "Global navigation" })).toBeVisible();
});

test("logout without JavaScript: the profile menu leads to a server-rendered confirmation", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill("admin@example.com");
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await page.goto("/northfield");
  await page.getByText("Administrator").click(); // <details> opens without JavaScript
  await page.getByRole("link", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/logout$/);
  await expect(page.getByText("Are you sure you want to logout?")).toBeVisible();
  await page.getByRole("link", { name: "No" }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto("/logout");
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("a toast is visible without JavaScript", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill("admin@example.com");
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await page.goto("/jobs");
  await page.locator("tr[data-queue='purge-refresh-tokens']").getByRole("button", { name: "Run now" }).click();
  await expect(page.getByTestId("toast")).toContainText("Job queued (purge-refresh-tokens)");
});
