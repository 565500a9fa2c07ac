import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRequest, loaderJson, settle, signInToConsole, testContext } from "../../tests/support/console-context";
import { startTestHost } from "../../tests/support/test-host";
import { loader as dashboardLoader } from "./backoffice.$urlCode.dashboard";
import { loader as clientsLoader } from "./clients._index";
import { action as tokenAction, loader as tokenLoader } from "./generate_jwt_token";

/** `POST {back-office host}/generate_jwt_token` and the bearer the back-office pages accept. */
let host: Awaited<ReturnType<typeof startTestHost>>;

beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

const context = () => testContext(host);
const post = (cookie?: string) =>
  new Request("http://localhost/generate_jwt_token", { method: "POST", headers: cookie ? { cookie } : {} });
const withBearer = (url: string, token: string) =>
  new Request(`http://localhost${url}`, { headers: { authorization: `Bearer ${token}` } });

async function tokenFor(email: string) {
  const cookie = await signInToConsole(host, email);
  const answer = await settle(() => tokenAction({ request: post(cookie), context: context(), params: {} }));
  expect(answer.status).toBe(200);
  expect(answer.headers.get("cache-control")).toBe("no-store");
  return ((await answer.json()) as { token: string }).token;
}

describe("POST /generate_jwt_token", () => {
  it("answers {token} for the session's user, and 401 without a session", async () => {
    const token = await tokenFor("client.user@example.com");
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const anonymous = await settle(() => tokenAction({ request: post(), context: context(), params: {} }));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: "Sign in first" });
    expect((await settle(async () => tokenLoader())).status).toBe(405);
  });

  it("gives a token the back-office pages accept as a bearer, within the user's clients", async () => {
    const token = await tokenFor("client.user@example.com");
    const page = await loaderJson(dashboardLoader, {
      request: withBearer("/backoffice/northfield/dashboard", token),
      context: context(),
      params: { urlCode: "northfield" },
    });
    expect(page.client.name).toBe("Northfield University");
    const other = await settle(() =>
      dashboardLoader({
        request: withBearer("/backoffice/shopharbor-outfitters/dashboard", token),
        context: context(),
        params: { urlCode: "shopharbor-outfitters" },
      }),
    );
    expect(other.status).toBe(404);
  });

  it("answers 401 to a bad or expired bearer, so the caller fetches a new token and retries", async () => {
    const page = await settle(() =>
      dashboardLoader({
        request: withBearer("/backoffice/northfield/dashboard", "not.a.token"),
        context: context(),
        params: { urlCode: "northfield" },
      }),
    );
    expect(page.status).toBe(401);
    expect(page.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("is not a way into the console's other pages, which keep to the session cookie", async () => {
    const token = await tokenFor("admin@example.com");
    const clients = await settle(() =>
      clientsLoader({ request: withBearer("/clients", token), context: context(), params: {} }),
    );
    expect(clients).toHaveRedirect(/^\/login/);
    // Without either, a back-office page sends the browser to sign in as before.
    const signedOut = await settle(() =>
      dashboardLoader({
        request: getRequest("/backoffice/northfield/dashboard"),
        context: context(),
        params: { urlCode: "northfield" },
      }),
    );
    expect(signedOut).toHaveRedirect();
  });
});
