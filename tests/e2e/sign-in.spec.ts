import { request as httpRequest } from "node:http";
import { expect, expectNoSeriousAxeViolations, setGoogleIdentity, test } from "./fixtures";
import { BASE_URL } from "./ports";

// These journeys share the OpenID provider's chosen identity, so they run one after another.
test.describe.configure({ mode: "serial" });

test("the login screen says the spec's words and passes axe", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "Welcome" })).toBeVisible();
  await expect(page.getByText("Please sign in with your Google account to continue.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in with Google" })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
});

test("Google sign-in: the full authorization-code flow against the local provider", async ({ page }) => {
  await setGoogleIdentity("client.admin@example.com", "Casey Admin");
  await page.goto("/northfield/manage");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fnorthfield%2Fmanage$/);
  await page.getByRole("button", { name: "Sign in with Google" }).click();
  // Provider ⇒ /login/google/callback ⇒ the API exchanges the code ⇒ back where we were going.
  await expect(page).toHaveURL(/\/northfield\/manage$/);
  await expect(page.getByLabel("Profile menu")).toHaveText("Casey Admin");
  await expect(page.getByTestId("selected-client")).toHaveText("Northfield University");
});

test("Google sign-in of an unknown account ends on the login screen with a clear message", async ({ page }) => {
  await setGoogleIdentity("intruder@elsewhere.org");
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in with Google" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("alert")).toHaveText(
    "The account intruder@elsewhere.org has no access to this console. Ask an administrator to add you.",
  );
});

test("development sign-in, then logout through the confirmation dialog", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill("nobody@example.com");
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page.getByText("The account nobody@example.com has no access to this console.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("nobody@example.com");

  await page.getByLabel("Email").fill("admin@example.com");
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("navigation", { name: "Global navigation" })).toBeVisible();

  await page.getByLabel("Profile menu").click();
  await page.getByRole("link", { name: "Logout" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Are you sure you want to logout?");
  await dialog.getByRole("button", { name: "No" }).click();
  await expect(dialog).toBeHidden();

  await page.getByLabel("Profile menu").click();
  await page.getByRole("link", { name: "Logout" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Yes" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/users");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fusers$/);
});

test("with development sign-in on, a request naming a host the server was not given is refused: no DNS rebinding", async () => {
  const { port } = new URL(BASE_URL);
  const postAs = (host: string, path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body =
        path === "/auth/dev" ? JSON.stringify({ email: "admin@example.com" }) : "intent=dev&email=admin@example.com";
      const type = path === "/auth/dev" ? "application/json" : "application/x-www-form-urlencoded";
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          path,
          method: "POST",
          headers: { host, origin: `http://${host}`, "content-type": type },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  for (const path of ["/login?index", "/auth/dev"]) {
    const rebound = await postAs(`rebind.attacker.example:${port}`, path);
    expect(rebound.status, path).toBe(403);
    expect(rebound.body, path).toContain("This server answers to its own addresses only");
  }
  expect((await postAs(`127.0.0.1:${port}`, "/auth/dev")).status).toBe(200);
});
