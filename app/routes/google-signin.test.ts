import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeaderFrom, formRequest, getRequest, settle, testContext } from "../../tests/support/console-context";
import { startOidcProvider } from "../../tests/support/oidc";
import { startTestHost } from "../../tests/support/test-host";
import { sessionStorageFor } from "~/server/session.server";
import { action as beginAction } from "./login.google";
import { loader as callbackLoader } from "./login.google.callback";
import { action as oneTapAction } from "./login.google.one-tap";

let host: Awaited<ReturnType<typeof startTestHost>>;
let oidc: Awaited<ReturnType<typeof startOidcProvider>>;
let context: ReturnType<typeof testContext>;

beforeAll(async () => {
  oidc = await startOidcProvider();
  host = await startTestHost({ google: oidc.apiGoogleConfig });
  context = testContext(host, {
    google: {
      clientId: oidc.env.GOOGLE_CLIENT_ID,
      clientSecret: oidc.env.GOOGLE_CLIENT_SECRET,
      authorizationUrl: oidc.env.GOOGLE_AUTHORIZATION_URL,
    },
    devLogin: false,
  });
});
afterAll(async () => {
  await host?.close();
  await oidc?.stop();
});

const args = (request: Request) => ({ request, context, params: {} });
const setCookies = (response: Response) => response.headers.getSetCookie();

async function beginSignIn(redirectTo: string) {
  const response = await settle(() => beginAction(args(formRequest("/login/google", { redirectTo }))));
  expect(response).toHaveRedirect();
  return { location: new URL(response.headers.get("location")!), cookie: cookieHeaderFrom(...setCookies(response)) };
}

describe("Google authorization-code sign-in through the console", () => {
  it("redirects to the provider with client id, callback and state, then signs in on return", async () => {
    oidc.setIdentity({ email: "client.admin@example.com" });
    const { location, cookie } = await beginSignIn("/northfield/manage");
    expect(location.origin + location.pathname).toBe(`${oidc.url}/authorize`);
    expect(location.searchParams.get("client_id")).toBe("console-test-client");
    expect(location.searchParams.get("redirect_uri")).toBe("http://localhost/login/google/callback");
    expect(location.searchParams.get("state")).toBeTruthy();

    const back = new URL((await fetch(location, { redirect: "manual" })).headers.get("location")!);
    const done = await settle(() => callbackLoader(args(getRequest(`${back.pathname}${back.search}`, cookie))));
    expect(done).toHaveRedirect("/northfield/manage");
    const session = await sessionStorageFor(context).getSession(cookieHeaderFrom(...setCookies(done)));
    expect(session.get("user")?.email).toBe("client.admin@example.com");
  });

  it("refuses a callback whose state does not match, with the reason on the login screen", async () => {
    const { location, cookie } = await beginSignIn("/");
    const back = new URL((await fetch(location, { redirect: "manual" })).headers.get("location")!);
    back.searchParams.set("state", "forged");
    const done = await settle(() => callbackLoader(args(getRequest(`${back.pathname}${back.search}`, cookie))));
    expect(done).toHaveRedirect("/login");
    const session = await sessionStorageFor(context).getSession(cookieHeaderFrom(...setCookies(done)));
    expect(session.get("authError")).toBe("State doesn't match.");
  });
});

describe("Google One Tap", () => {
  const oneTap = (credential: string, csrfBody: string, csrfCookie: string) =>
    settle(() =>
      oneTapAction(
        args(
          formRequest("/login/google/one-tap", { credential, g_csrf_token: csrfBody }, `g_csrf_token=${csrfCookie}`),
        ),
      ),
    );

  it("signs in with a verified ID token when the CSRF double-submit matches", async () => {
    oidc.setIdentity({ email: "admin@example.com" });
    const response = await oneTap(await oidc.idToken(), "tok-1", "tok-1");
    expect(response).toHaveRedirect("/");
    const session = await sessionStorageFor(context).getSession(cookieHeaderFrom(...setCookies(response)));
    expect(session.get("user")?.user_type).toBe("super_admin");
  });

  it("refuses a mismatched CSRF token", async () => {
    oidc.setIdentity({ email: "admin@example.com" });
    expect(await oneTap(await oidc.idToken(), "tok-1", "tok-2")).toHaveRedirect("/login");
  });

  it("refuses an unknown account, saying why on the login screen", async () => {
    oidc.setIdentity({ email: "stranger@example.com" });
    const unknown = await oneTap(await oidc.idToken(), "t", "t");
    const session = await sessionStorageFor(context).getSession(cookieHeaderFrom(...setCookies(unknown)));
    expect(session.get("authError")).toContain("stranger@example.com has no access");
  });
});
