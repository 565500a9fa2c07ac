import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeaderFrom, formRequest, getRequest, settle, testContext } from "../../tests/support/console-context";
import { startOidcProvider } from "../../tests/support/oidc";
import { startTestHost } from "../../tests/support/test-host";
import { sessionStorageFor } from "~/server/session.server";
import { TOO_MANY_SIGN_INS } from "~/lib/messages";
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

describe("Google sign-in bound to the browser that began it", () => {
  const callbackTo = (back: URL, cookie: string, to = context) =>
    settle(() =>
      callbackLoader({ request: getRequest(`${back.pathname}${back.search}`, cookie), context: to, params: {} }),
    );
  const providerAnswer = async (location: URL) =>
    new URL((await fetch(location, { redirect: "manual" })).headers.get("location")!);
  const authErrorOf = async (response: Response) =>
    (await sessionStorageFor(context).getSession(cookieHeaderFrom(...setCookies(response)))).get("authError");

  it("asks with PKCE's S256 challenge and a nonce, each its own to the request", async () => {
    const first = (await beginSignIn("/")).location.searchParams;
    const second = (await beginSignIn("/")).location.searchParams;
    expect(first.get("code_challenge_method")).toBe("S256");
    expect(first.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.get("nonce")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.get("code_challenge")).not.toBe(first.get("code_challenge"));
    expect(second.get("nonce")).not.toBe(first.get("nonce"));
  });

  it("refuses a code issued to another sign-in, brought to this browser's callback with this browser's state", async () => {
    oidc.setIdentity({ email: "admin@example.com" });
    const victim = await beginSignIn("/");
    const attacker = await beginSignIn("/");
    const injected = await providerAnswer(attacker.location);
    injected.searchParams.set("state", victim.location.searchParams.get("state")!);
    const done = await callbackTo(injected, victim.cookie);
    expect(done).toHaveRedirect("/login");
    expect(await authErrorOf(done)).toMatch(/^Google refused the sign-in code/);
  });

  it("takes a state once: the signed-in browser's session no longer holds it", async () => {
    oidc.setIdentity({ email: "client.admin@example.com" });
    const { location, cookie } = await beginSignIn("/");
    const signedIn = await callbackTo(await providerAnswer(location), cookie);
    expect(signedIn).toHaveRedirect("/");
    // A fresh code for the same request and state, delivered to the browser now signed in.
    const replay = await callbackTo(await providerAnswer(location), cookieHeaderFrom(...setCookies(signedIn)));
    expect(replay).toHaveRedirect("/login");
    expect(await authErrorOf(replay)).toBe("Missing state on session.");
  });

  it("counts every return from Google against the address's sign-in limit", async () => {
    const limited = testContext(
      host,
      {
        google: {
          clientId: oidc.env.GOOGLE_CLIENT_ID,
          clientSecret: oidc.env.GOOGLE_CLIENT_SECRET,
          authorizationUrl: oidc.env.GOOGLE_AUTHORIZATION_URL,
        },
        devLogin: false,
      },
      { perAddressPerMinute: 3, perAccountPerMinute: 3 },
    );
    const begun = await settle(() =>
      beginAction({ request: formRequest("/login/google", { redirectTo: "/" }), context: limited, params: {} }),
    );
    const cookie = cookieHeaderFrom(...setCookies(begun));
    const state = new URL(begun.headers.get("location")!).searchParams.get("state")!;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const guess = new URL(`http://localhost/login/google/callback?code=guess-${i}&state=${state}`);
      statuses.push((await callbackTo(guess, cookie, limited)).status);
    }
    // The start of the flow took one of the three.
    expect(statuses.slice(0, 2).every((status) => status === 302)).toBe(true);
    expect(statuses.slice(2)).toEqual([429, 429]);
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

describe("Google sign-in past the API's sign-in limit", () => {
  // The API counts an account's failed sign-ins (the console calls it in process, without an address).
  let limitedHost: Awaited<ReturnType<typeof startTestHost>>;
  let limited: ReturnType<typeof testContext>;
  beforeAll(async () => {
    limitedHost = await startTestHost({
      google: oidc.apiGoogleConfig,
      signInLimits: { perAddressPerMinute: 10_000, perAccountPerMinute: 2 },
    });
    limited = testContext(limitedHost, {
      google: {
        clientId: oidc.env.GOOGLE_CLIENT_ID,
        clientSecret: oidc.env.GOOGLE_CLIENT_SECRET,
        authorizationUrl: oidc.env.GOOGLE_AUTHORIZATION_URL,
      },
      devLogin: false,
    });
    // The API's limit says how long to wait (a minute, rounded, as its limits count); a wait of its own
    // here tells the one passed on from any the console would make up.
    limited.apiFetch = async (request) => {
      const answer = await limitedHost.api.fetch(request);
      if (answer.status !== 429) return answer;
      const headers = new Headers(answer.headers);
      headers.set("Retry-After", "42");
      return new Response(answer.body, { status: 429, headers });
    };
  });
  afterAll(() => limitedHost?.close());

  const expectLimitAnswer = async (response: Response) => {
    expect(response.status).toBe(429);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("retry-after")).toBe("42");
    expect(await response.text()).toBe(TOO_MANY_SIGN_INS);
  };

  it("answers One Tap 429 with the API's Retry-After, where refusals before it went to the login screen", async () => {
    oidc.setIdentity({ email: "limited.one-tap@example.com" });
    const oneTap = async () => {
      const credential = await oidc.idToken();
      return settle(() =>
        oneTapAction({
          request: formRequest("/login/google/one-tap", { credential, g_csrf_token: "t" }, "g_csrf_token=t"),
          context: limited,
          params: {},
        }),
      );
    };
    for (let i = 0; i < 2; i++) expect(await oneTap()).toHaveRedirect("/login");
    await expectLimitAnswer(await oneTap());
  });

  it("answers the return from Google 429 with the API's Retry-After, not a redirect with a flash", async () => {
    oidc.setIdentity({ email: "limited.callback@example.com" });
    const callback = async () => {
      const begun = await settle(() =>
        beginAction({ request: formRequest("/login/google", { redirectTo: "/" }), context: limited, params: {} }),
      );
      const cookie = cookieHeaderFrom(...setCookies(begun));
      const back = new URL(
        (await fetch(new URL(begun.headers.get("location")!), { redirect: "manual" })).headers.get("location")!,
      );
      return settle(() =>
        callbackLoader({ request: getRequest(`${back.pathname}${back.search}`, cookie), context: limited, params: {} }),
      );
    };
    for (let i = 0; i < 2; i++) {
      const refused = await callback();
      expect(refused).toHaveRedirect("/login");
      const session = await sessionStorageFor(limited).getSession(cookieHeaderFrom(...setCookies(refused)));
      expect(session.get("authError")).toContain("limited.callback@example.com has no access");
    }
    await expectLimitAnswer(await callback());
  });
});
