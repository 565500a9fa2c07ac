import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  cookieHeaderFrom,
  formRequest,
  getRequest,
  loaderJson,
  settle,
  signInToConsole,
  testContext,
} from "../../tests/support/console-context";
import { addAdminOfManyClients, startTestHost, TEST_SECRETS } from "../../tests/support/test-host";
import { newRequestScope } from "~/server/context.server";
import { sessionStorageFor } from "~/server/session.server";
import { USER_NAME_MAX_CHARS } from "@contract";
import { redirectWithToast } from "~/server/toast.server";
import { errorMessageOf } from "~/components/RouteError";
import { NOT_SHOWN_JUST_NOW, refreshLimitedNotSaved, refreshLimitedNotShown, TOO_MANY_SIGN_INS } from "~/lib/messages";
import { answeringUnavailable } from "~/server/http/unavailable-answers.server";
import { loader as clientScopeLoader } from "./$appName";
import { action as manageAction } from "./$appName.manage";
import { action as loginAction, loader as loginLoader } from "./login";
import { action as logoutAction } from "./logout";
import { loader as rootLoader } from "../root";

let host: Awaited<ReturnType<typeof startTestHost>>;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

const args = (request: Request, context = testContext(host), params: Record<string, string> = {}) => ({
  request,
  context,
  params,
});

async function expiredToken(userId: number) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ typ: "user" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(userId))
    .setIssuer("assistant-console-api")
    .setIssuedAt(now - 3600)
    .setExpirationTime(now - 60)
    .sign(new TextEncoder().encode(TEST_SECRETS.jwtSecret));
}

/** A console context whose API refuses every refresh with its per-address limit's 429. */
function refreshLimitedContext(retryAfter: string | null) {
  const context = testContext(host);
  context.apiFetch = async (request) =>
    new URL(request.url).pathname === "/v1/users/generate_access_token"
      ? Response.json(
          { message: "Too many attempts; wait a minute and try again" },
          { status: 429, headers: retryAfter ? { "Retry-After": retryAfter } : {} },
        )
      : host.api.fetch(request);
  return context;
}

/** What a loader or action threw, or null when it answered. */
const thrownBy = (run: () => Promise<unknown>) =>
  run().then(
    () => null,
    (error: unknown) => error,
  );

/** Rewrites the session in a cookie, as if time had passed. */
async function withSession(
  cookie: string,
  change: (session: Awaited<ReturnType<ReturnType<typeof sessionStorageFor>["getSession"]>>) => Promise<void>,
) {
  const storage = sessionStorageFor(testContext(host));
  const session = await storage.getSession(cookie);
  await change(session);
  return cookieHeaderFrom(await storage.commitSession(session));
}

describe("development sign-in (login action)", () => {
  it("starts a session and goes where the user was heading", async () => {
    const response = await settle(() =>
      loginAction(
        args(formRequest("/login", { intent: "dev", email: "admin@example.com", redirectTo: "/northfield" })),
      ),
    );
    expect(response).toHaveRedirect("/northfield");
    const cookie = response.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^__session=.+HttpOnly; SameSite=Lax/);
  });

  it("never redirects off the site", async () => {
    const response = await settle(() =>
      loginAction(
        args(formRequest("/login", { intent: "dev", email: "admin@example.com", redirectTo: "//evil.example" })),
      ),
    );
    expect(response).toHaveRedirect("/");
  });

  it.each([
    ["/\t/evil.example", "/"],
    ["/\n/x", "/"],
    ["/\\evil.example", "/"],
    ["/%09/evil.example", "/%09/evil.example"],
    ["https://evil.example/", "/"],
    ["/northfield/manage?tab=1#top", "/northfield/manage?tab=1#top"],
  ])("sends redirectTo %j after sign-in to %j, a path of this site", async (redirectTo, location) => {
    const response = await settle(() =>
      loginAction(args(formRequest("/login", { intent: "dev", email: "admin@example.com", redirectTo }))),
    );
    expect(response).toHaveRedirect(location);
  });

  it.each([
    "/.//evil.example/phish",
    "/..//evil.example/phish",
    "/x/../..//evil.example/phish",
    "/./%2F/evil.example",
    "/%2e//evil.example",
  ])(
    "never answers a signed-in visitor's /login?redirectTo=%s with a redirect another host could serve",
    async (redirectTo) => {
      const cookie = await signInToConsole(host, "admin@example.com");
      const response = await settle(() =>
        loginLoader(args(getRequest(`/login?${new URLSearchParams({ redirectTo })}`, cookie))),
      );
      expect(response).toHaveRedirect();
      const location = response.headers.get("location")!;
      expect(new URL(location, "https://console.example").origin).toBe("https://console.example");
      const signedIn = await settle(() =>
        loginAction(args(formRequest("/login", { intent: "dev", email: "admin@example.com", redirectTo }))),
      );
      expect(new URL(signedIn.headers.get("location")!, "https://console.example").origin).toBe(
        "https://console.example",
      );
    },
  );

  it("answers a signed-in visitor's /login?redirectTo=/%0A/x with a redirect home, not a 500", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    for (const query of ["redirectTo=/%0A/x", "redirectTo=/%09/evil.example"]) {
      const response = await settle(() => loginLoader(args(getRequest(`/login?${query}`, cookie))));
      expect(response).toHaveRedirect("/");
    }
  });

  it("puts the API's message next to the email field for an unknown account", async () => {
    const response = await settle(() =>
      loginAction(args(formRequest("/login", { intent: "dev", email: "stranger@example.com" }))),
    );
    expect(response.status).toBe(403);
    const reply = await response.json();
    expect(reply.error.email).toEqual([
      "The account stranger@example.com has no access to this console. Ask an administrator to add you.",
    ]);
    expect(reply.initialValue.email).toBe("stranger@example.com");
  });

  it("passes the API's sign-in limit on with its own wait", async () => {
    const context = testContext(host);
    context.apiFetch = async (request) =>
      new URL(request.url).pathname === "/auth/dev"
        ? Response.json({ message: "Too many attempts" }, { status: 429, headers: { "Retry-After": "42" } })
        : host.api.fetch(request);
    const response = await settle(() =>
      loginAction(args(formRequest("/login", { intent: "dev", email: "admin@example.com" }), context)),
    );
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("42");
    expect((await response.json()).error[""]).toEqual([TOO_MANY_SIGN_INS]);
  });

  it("rejects a malformed email with 400, keeping what was typed", async () => {
    const response = await settle(() => loginAction(args(formRequest("/login", { intent: "dev", email: "nope" }))));
    expect(response.status).toBe(400);
    const reply = await response.json();
    expect(reply.error.email).toEqual(["Enter a valid email address"]);
    expect(reply.initialValue.email).toBe("nope");
  });

  it("is not offered, and refused, when development sign-in is off", async () => {
    const context = testContext(host, { devLogin: false });
    const page = await loaderJson(loginLoader, args(getRequest("/login"), context));
    expect(page.devLogin).toBe(false);
    const response = await settle(() =>
      loginAction(args(formRequest("/login", { intent: "dev", email: "admin@example.com" }), context)),
    );
    expect(response.status).toBe(403);
  });

  it("sends a signed-in user away from the login screen", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const response = await settle(() => loginLoader(args(getRequest("/login?redirectTo=/users", cookie))));
    expect(response).toHaveRedirect("/users");
  });
});

describe("the session cookie", () => {
  it("is encrypted: neither the user nor the tokens can be read from it", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const value = decodeURIComponent(cookie.slice("__session=".length));
    const session = await sessionStorageFor(testContext(host)).getSession(cookie);
    const readable = [value, Buffer.from(value, "base64").toString("utf8")];
    for (const text of readable) {
      expect(text).not.toContain("admin@example.com");
      expect(text).not.toContain(session.get("refresh_token"));
    }
    expect(session.get("user")?.email).toBe("admin@example.com");
  });

  it("is no session once altered, or sealed with another secret", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const flipped = cookie.slice(0, -6) + (cookie.endsWith("A") ? "B" : "A") + cookie.slice(-5);
    expect((await sessionStorageFor(testContext(host)).getSession(flipped)).get("user")).toBeUndefined();
    const other = testContext(host, { sessionSecrets: ["another-secret"] });
    expect((await sessionStorageFor(other).getSession(cookie)).get("user")).toBeUndefined();
    // Rotation: a new first secret still opens cookies sealed with the old one.
    const rotated = testContext(host, { sessionSecrets: ["new-secret", ...TEST_SECRETS.sessionSecrets] });
    expect((await sessionStorageFor(rotated).getSession(cookie)).get("user")?.email).toBe("admin@example.com");
  });

  it("stays the same size however many clients the user holds a role in", async () => {
    // A host of its own: the clients made here would show in the other tests' lists.
    const host = await startTestHost();
    onTestFinished(() => host.close());
    const args = (request: Request) => ({ request, context: testContext(host), params: {} });
    const person = await addAdminOfManyClients(
      host,
      { email: `many.clients.${"x".repeat(240)}@example.com`, name: "Ü".repeat(USER_NAME_MAX_CHARS) },
      120,
    );

    const response = await settle(() =>
      loginAction(args(formRequest("/login", { intent: "dev", email: person.email, redirectTo: "/" }))),
    );
    expect(response).toHaveRedirect("/");
    const cookie = cookieHeaderFrom(response.headers.get("set-cookie")!);
    // A browser keeps a cookie of up to 4,096 bytes; the roles are read from the API on each page.
    expect(cookie.length).toBeLessThan(2500);
    const data = await loaderJson(rootLoader, args(getRequest("/", cookie)));
    expect(data.signedIn!.apps).toHaveLength(120);
  });
});

describe("a form posted after the session ended", () => {
  /** The admin's session as it is once its sign-in has been revoked or has expired. */
  async function endedSession() {
    return withSession(await signInToConsole(host, "admin@example.com"), async (session) => {
      session.set("user_token", await expiredToken(session.get("user")!.id));
      session.set("refresh_token", "revoked-or-unknown");
    });
  }
  const postManage = (cookie: string | undefined, fields: Record<string, string>) =>
    settle(() =>
      manageAction(
        args(formRequest("/northfield/manage", fields, cookie), testContext(host), { appName: "northfield" }),
      ),
    );
  const unsentCookieOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .find((line) => line.startsWith("__unsent="))
      ?.split(";")[0];

  it("is kept for its user, who is offered it once on that page after signing in again", async () => {
    const posted = await postManage(await endedSession(), { client_name: "Typed while signed out", intent: "save" });
    expect(posted).toHaveRedirect("/login?redirectTo=%2Fnorthfield%2Fmanage&unsaved=1");
    const unsent = unsentCookieOf(posted)!;
    expect(unsent).toBeDefined();
    const login = await loaderJson(loginLoader, args(getRequest(posted.headers.get("location")!, unsent)));
    expect(login).toMatchObject({ unsaved: true, kept: true });

    const signedIn = await signInToConsole(host, "admin@example.com");
    const page = await settle(() => rootLoader(args(getRequest("/northfield/manage", `${signedIn}; ${unsent}`))));
    expect((await page.json()).unsent).toEqual({
      to: "/northfield/manage",
      fields: [
        ["client_name", "Typed while signed out"],
        ["intent", "save"],
      ],
    });
    // Offered once: the answer forgets it.
    expect(page.headers.getSetCookie().some((line) => /^__unsent=;.*Max-Age=0/.test(line))).toBe(true);
  });

  it("is offered to nobody else, and on no other page", async () => {
    const unsent = unsentCookieOf(await postManage(await endedSession(), { client_name: "Mine" }))!;
    const colleague = await signInToConsole(host, "client.admin@example.com");
    const theirs = await loaderJson(rootLoader, args(getRequest("/northfield/manage", `${colleague}; ${unsent}`)));
    expect(theirs.unsent).toBeNull();
    const admin = await signInToConsole(host, "admin@example.com");
    const elsewhere = await loaderJson(rootLoader, args(getRequest("/northfield", `${admin}; ${unsent}`)));
    expect(elsewhere.unsent).toBeNull();
    // Altered, it is nothing.
    const altered = unsent.slice(0, -3) + (unsent.endsWith("A") ? "BBB" : "AAA");
    const tampered = await loaderJson(rootLoader, args(getRequest("/northfield/manage", `${admin}; ${altered}`)));
    expect(tampered.unsent).toBeNull();
  });

  it("is not kept without a known user, nor when it is too large for a cookie, and the sign-in page says so", async () => {
    expect(unsentCookieOf(await postManage(undefined, { client_name: "Whose?" }))).toBeUndefined();
    // Text that does not compress: about 6 KB of it.
    const noise = Array.from({ length: 1500 }, (_, i) => ((i * 2654435761) >>> 0).toString(36)).join("");
    const large = await postManage(await endedSession(), { client_name: noise });
    expect(unsentCookieOf(large)).toBeUndefined();
    const login = await loaderJson(loginLoader, args(getRequest(large.headers.get("location")!)));
    expect(login).toMatchObject({ unsaved: true, kept: false });
  });
});

describe("root loader and the API client", () => {
  it("sends visitors without a session to the login screen, remembering where they were going", async () => {
    const response = await settle(() => rootLoader(args(getRequest("/northfield/manage"))));
    expect(response).toHaveRedirect("/login?redirectTo=%2Fnorthfield%2Fmanage");
  });

  it("says on the sign-in page that a change posted after the session ended was not saved", async () => {
    const posted = await settle(() =>
      manageAction(
        args(formRequest("/northfield/manage", { client_name: "Typed while signed out" }), testContext(host), {
          appName: "northfield",
        }),
      ),
    );
    expect(posted).toHaveRedirect("/login?redirectTo=%2Fnorthfield%2Fmanage&unsaved=1");
    const page = await loaderJson(loginLoader, args(getRequest(posted.headers.get("location")!)));
    expect(page).toMatchObject({ redirectTo: "/northfield/manage", unsaved: true });
    // Pages opened after it ended say nothing of the kind.
    const opened = await loaderJson(loginLoader, args(getRequest("/login?redirectTo=%2Fnorthfield%2Fmanage")));
    expect(opened.unsaved).toBe(false);
  });

  it("loads the user and the active clients they may see", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const data = await loaderJson(rootLoader, args(getRequest("/", cookie)));
    expect(data.signedIn!.user.email).toBe("client.user@example.com");
    expect(data.signedIn!.apps.map((a: { url_code: string }) => a.url_code)).toEqual(["northfield"]);
  });

  it("refreshes an expired user token once, retries, and writes the new tokens to the cookie", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const stale = await withSession(cookie, async (session) =>
      session.set("user_token", await expiredToken(session.get("user")!.id)),
    );
    const context = testContext(host);
    const data = await loaderJson(rootLoader, args(getRequest("/", stale), context));
    expect(data.signedIn!.apps).toHaveLength(2);
    expect(context.appendedCookies).toHaveLength(1);
    const refreshed = await sessionStorageFor(context).getSession(cookieHeaderFrom(context.appendedCookies[0]));
    const old = await sessionStorageFor(context).getSession(stale);
    expect(refreshed.get("refresh_token")).not.toBe(old.get("refresh_token"));
  });

  it("shares one refresh between parallel loaders holding the same expired token", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const stale = await withSession(cookie, async (session) =>
      session.set("user_token", await expiredToken(session.get("user")!.id)),
    );
    const results = await Promise.all([1, 2, 3].map(() => settle(() => rootLoader(args(getRequest("/", stale))))));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it("hands the new refresh token only to the request that rotated it; the browser's other requests just use the new user token", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const stale = await withSession(cookie, async (session) =>
      session.set("user_token", await expiredToken(session.get("user")!.id)),
    );
    const contexts = [1, 2, 3].map(() => testContext(host));
    const results = await Promise.all(
      contexts.map((context) => settle(() => rootLoader(args(getRequest("/", stale), context)))),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(contexts.map((context) => context.appendedCookies.length).sort()).toEqual([0, 0, 1]);
  });

  it("signs out a copied cookie whose refresh token was already rotated, even within seconds, from another browser", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const stale = await withSession(cookie, async (session) =>
      session.set("user_token", await expiredToken(session.get("user")!.id)),
    );
    const victim = testContext(host);
    expect((await settle(() => rootLoader(args(getRequest("/", stale), victim)))).status).toBe(200);
    expect(victim.appendedCookies).toHaveLength(1);

    const attacker = testContext(host);
    attacker.clientAddress = "198.51.100.9";
    const replayed = await settle(() => rootLoader(args(getRequest("/users", stale), attacker)));
    expect(replayed).toHaveRedirect(/^\/login/);
    for (const handedOut of [...attacker.appendedCookies, replayed.headers.get("set-cookie")]) {
      const session = await sessionStorageFor(attacker).getSession(cookieHeaderFrom(handedOut));
      expect(session.get("refresh_token")).toBeUndefined();
    }
    // The reuse revoked the sign-in: the victim's rotated session is over too, as reuse detection intends.
    const after = await withSession(cookieHeaderFrom(victim.appendedCookies[0]), async (session) =>
      session.set("user_token", await expiredToken(session.get("user")!.id)),
    );
    expect(await settle(() => rootLoader(args(getRequest("/users", after), testContext(host))))).toHaveRedirect();
  });

  it("clears the session and returns to the login screen when the refresh fails", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const broken = await withSession(cookie, async (session) => {
      session.set("user_token", await expiredToken(session.get("user")!.id));
      session.set("refresh_token", "revoked-or-unknown");
    });
    const response = await settle(() => rootLoader(args(getRequest("/users", broken))));
    expect(response).toHaveRedirect("/login?redirectTo=%2Fusers");
    expect(response.headers.get("set-cookie")).toMatch(/__session=;.*Expires=Thu, 01 Jan 1970/);
  });

  it("keeps the sign-in when the refresh is not answered (an outage, no answer), and refreshes on the next page", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const stale = await withSession(cookie, async (session) =>
      session.set("user_token", await expiredToken(session.get("user")!.id)),
    );
    const failures: [() => Response, string | null][] = [
      [() => Response.json({ message: "The database is not answering" }, { status: 503 }), null],
      [
        () => {
          throw new TypeError("fetch failed");
        },
        null,
      ],
    ];
    for (const [failure, retryAfter] of failures) {
      const context = testContext(host);
      context.apiFetch = async (request) =>
        new URL(request.url).pathname === "/v1/users/generate_access_token" ? failure() : host.api.fetch(request);
      const thrown = await rootLoader(args(getRequest("/users", stale), context)).then(
        () => null,
        (error: unknown) => error,
      );
      expect(thrown).toMatchObject({ status: 503, data: NOT_SHOWN_JUST_NOW, retryAfter });
      expect(context.appendedCookies).toEqual([]);
    }
    // The refresh token was never spent: the next page refreshes it and goes on.
    const next = testContext(host);
    const data = await loaderJson(rootLoader, args(getRequest("/", stale), next));
    expect(data.signedIn!.user.email).toBe("admin@example.com");
    expect(next.appendedCookies).toHaveLength(1);
  });

  it("answers 429 with the limit's wait when a limit refuses the refresh, keeping the sign-in", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const stale = await withSession(cookie, async (session) =>
      session.set("user_token", await expiredToken(session.get("user")!.id)),
    );
    const thrown = await thrownBy(() => rootLoader(args(getRequest("/users", stale), refreshLimitedContext("42"))));
    expect(thrown).toMatchObject({ status: 429, data: refreshLimitedNotShown(42), retryAfter: "42" });
    expect(errorMessageOf(thrown)).toBe(
      "Too many sign-in renewals came from this address just now, so this page cannot be shown yet. You are still signed in; try again in 42 seconds.",
    );
    // As server.ts answers it: the status and the wait on the answer itself.
    const answered = (await thrownBy(() =>
      answeringUnavailable(rootLoader)(args(getRequest("/users", stale), refreshLimitedContext("42"))),
    )) as Response;
    expect(answered.status).toBe(429);
    expect(answered.headers.get("retry-after")).toBe("42");
    // A limit that names no wait: a minute, as the API's limits count.
    const unnamed = await thrownBy(() => rootLoader(args(getRequest("/users", stale), refreshLimitedContext(null))));
    expect(unnamed).toMatchObject({ status: 429, data: refreshLimitedNotShown(60), retryAfter: "60" });
    // The refresh token was never spent: once the limit allows, the next page refreshes it and goes on.
    const next = testContext(host);
    expect((await loaderJson(rootLoader, args(getRequest("/", stale), next))).signedIn!.user.email).toBe(
      "admin@example.com",
    );
    expect(next.appendedCookies).toHaveLength(1);
  });

  it("keeps a post made as the refresh is refused by a limit, to send again, with the limit's wait", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const stale = await withSession(cookie, async (session) =>
      session.set("user_token", await expiredToken(session.get("user")!.id)),
    );
    const context = { ...refreshLimitedContext("42"), requestScope: newRequestScope() };
    const thrown = await thrownBy(() =>
      manageAction(
        args(formRequest("/northfield/manage", { notes: "typed before the limit" }, stale), context, {
          appName: "northfield",
        }),
      ),
    );
    expect(thrown).toMatchObject({ status: 429, data: refreshLimitedNotSaved(42), retryAfter: "42" });
    expect(context.requestScope.interruptedPost?.fields).toContainEqual(["notes", "typed before the limit"]);
    expect(context.requestScope.interruptedAs).toEqual({ status: 429, message: refreshLimitedNotSaved(42) });
    expect(context.appendedCookies).toEqual([]);
  });

  it("hands over a toast once and clears it", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const toastCookie = (await redirectWithToast("/", { type: "success", description: "Saved" })).headers.get(
      "set-cookie",
    );
    const response = await settle(() =>
      rootLoader(args(getRequest("/", `${cookie}; ${cookieHeaderFrom(toastCookie)}`))),
    );
    expect((await response.json()).toast).toEqual({ type: "success", description: "Saved" });
    expect(response.headers.get("set-cookie")).toMatch(/^__toast=;.*Max-Age=0/);
  });
});

describe("client scope", () => {
  it("answers 404 for a url_code that is no client", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const response = await settle(() =>
      clientScopeLoader(args(getRequest("/nosuch", cookie), testContext(host), { appName: "nosuch" })),
    );
    expect(response.status).toBe(404);
  });

  it("answers 404 for a client the user holds no role in", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const foreign = await settle(() =>
      clientScopeLoader(
        args(getRequest("/shopharbor-outfitters", cookie), testContext(host), { appName: "shopharbor-outfitters" }),
      ),
    );
    expect(foreign.status).toBe(404);
    const own = await settle(() =>
      clientScopeLoader(args(getRequest("/northfield", cookie), testContext(host), { appName: "northfield" })),
    );
    expect(own.status).toBe(200);
  });
});

describe("logout", () => {
  it("clears tokens and user and returns to /", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const response = await settle(() => logoutAction(args(formRequest("/logout", {}, cookie))));
    expect(response).toHaveRedirect("/");
    expect(response.headers.get("set-cookie")).toMatch(/__session=;.*Expires=Thu, 01 Jan 1970/);
  });

  it("revokes the refresh token at the API, so a copied cookie is dead too", async () => {
    const cookie = await signInToConsole(host, "admin@example.com");
    const copied = await withSession(cookie, async (session) =>
      session.set("user_token", await expiredToken(session.get("user")!.id)),
    );
    await settle(() => logoutAction(args(formRequest("/logout", {}, cookie))));
    const response = await settle(() => rootLoader(args(getRequest("/", copied))));
    expect(response).toHaveRedirect("/login");
  });
});

describe("session cookie secrets", () => {
  it("keep verifying cookies signed with an older secret after rotation", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const rotated = testContext(host, {
      sessionSecrets: ["a-newer-secret", ...testContext(host).config.sessionSecrets],
    });
    const data = await loaderJson(rootLoader, args(getRequest("/", cookie), rotated));
    expect(data.signedIn!.user.email).toBe("client.user@example.com");
  });

  it("take a cookie signed with a secret they do not hold for no session", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const stranger = testContext(host, { sessionSecrets: ["unrelated-secret"] });
    expect(await settle(() => rootLoader(args(getRequest("/", cookie), stranger)))).toHaveRedirect("/login");
  });
});
