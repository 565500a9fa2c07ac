import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { googleConfigFromEnv } from "../config";
import { refreshTokens, users } from "../db/schema";
import { apiCaller, signInAs, startTestHost, TEST_SECRETS } from "../../tests/support/test-host";
import { startOidcProvider } from "../../tests/support/oidc";

let host: Awaited<ReturnType<typeof startTestHost>>;
let oidc: Awaited<ReturnType<typeof startOidcProvider>>;
let call: ReturnType<typeof apiCaller>;

beforeAll(async () => {
  oidc = await startOidcProvider();
  host = await startTestHost({ google: googleConfigFromEnv(oidc.env) });
  call = apiCaller(host);
});
afterAll(async () => {
  await host?.close();
  await oidc?.stop();
});

describe("development sign-in", () => {
  it("issues a token pair for a known user, whatever the case of the address", async () => {
    const { status, body } = await call("POST", "/auth/dev", { body: { email: "Client.Admin@Example.com" } });
    expect(status).toBe(200);
    expect(body).toEqual({ user_token: expect.any(String), refresh_token: expect.any(String) });
    const info = await call("GET", "/v1/users/get_info", { token: body.user_token });
    expect(info.body).toMatchObject({
      email: "client.admin@example.com",
      user_type: "user",
      app_roles: [{ role: "client_admin" }],
    });
  });

  it("answers tokens, and every other answer of the API, for no cache to keep", async () => {
    const post = (path: string, body: unknown) =>
      host.api.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const tokens = await post("/auth/dev", { email: "admin@example.com" });
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get("cache-control")).toBe("no-store");
    const { refresh_token } = (await tokens.json()) as { refresh_token: string };
    const refreshed = await post("/v1/users/generate_access_token", { refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get("cache-control")).toBe("no-store");
    expect((await post("/auth/dev", { email: "stranger@example.com" })).headers.get("cache-control")).toBe("no-store");
  });

  it("refuses an unknown account with a clear 403", async () => {
    const { status, body } = await call("POST", "/auth/dev", { body: { email: "stranger@example.com" } });
    expect(status).toBe(403);
    expect(body.message).toBe(
      "The account stranger@example.com has no access to this console. Ask an administrator to add you.",
    );
  });

  it("answers 400 with field errors for a bad body, never 500", async () => {
    const missing = await call("POST", "/auth/dev", { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.email).toHaveLength(1);
    const invalid = await call("POST", "/auth/dev", { body: { email: "not-an-email" } });
    expect(invalid.body.errors).toEqual({ email: ["Enter a valid email address"] });
    const broken = await call("POST", "/auth/dev", { rawBody: "{not json" });
    expect(broken).toEqual({ status: 400, body: { message: "The request body is not valid JSON" } });
  });

  it("is refused when the server disables it (production default)", async () => {
    const production = await startTestHost({ devLoginAllowed: false });
    try {
      const { status, body } = await apiCaller(production)("POST", "/auth/dev", {
        body: { email: "admin@example.com" },
      });
      expect(status).toBe(403);
      expect(body.message).toBe("Development sign-in is disabled on this server");
    } finally {
      await production.close();
    }
  });
});

describe("Google sign-in against a local OpenID provider", () => {
  async function authorizationCode(extra: Record<string, string> = {}) {
    const authorize = new URL(`${oidc.url}/authorize`);
    authorize.search = new URLSearchParams({
      client_id: "console-test-client",
      redirect_uri: "http://127.0.0.1/login/google/callback",
      response_type: "code",
      scope: "openid email",
      state: "s1",
      ...extra,
    }).toString();
    const response = await fetch(authorize, { redirect: "manual" });
    return new URL(response.headers.get("location")!).searchParams.get("code")!;
  }

  it("exchanges an authorization code and signs in the known user", async () => {
    oidc.setIdentity({ email: "client.user@example.com", name: "Jordan Viewer" });
    const { status, body } = await call("POST", "/auth/google", {
      body: { code: await authorizationCode(), redirect_uri: "http://127.0.0.1/login/google/callback" },
    });
    expect(status).toBe(200);
    const info = await call("GET", "/v1/users/get_info", { token: body.user_token });
    expect(info.body.email).toBe("client.user@example.com");
  });

  it("keeps a provider's name for a person without one, without control or direction characters, at most 200 long", async () => {
    await host.deps.db.insert(users).values({ email: "unnamed@example.com", name: "", userType: "user" });
    oidc.setIdentity({ email: "unnamed@example.com", name: `Evil\u202egnp.exe\u0007 ${"x".repeat(300)}` });
    const { status, body } = await call("POST", "/auth/google", { body: { id_token: await oidc.idToken() } });
    expect(status).toBe(200);
    const info = await call("GET", "/v1/users/get_info", { token: body.user_token });
    expect(info.body.name).toBe(`Evil gnp.exe ${"x".repeat(200 - "Evil gnp.exe ".length)}`);
  });

  it("refuses an unknown Google account with 403 and a clear message", async () => {
    oidc.setIdentity({ email: "nobody@elsewhere.org" });
    const { status, body } = await call("POST", "/auth/google", { body: { code: await authorizationCode() } });
    expect(status).toBe(403);
    expect(body.message).toContain("nobody@elsewhere.org has no access");
  });

  it("refuses an unverified email address", async () => {
    oidc.setIdentity({ email: "admin@example.com", email_verified: false });
    const { status } = await call("POST", "/auth/google", { body: { code: await authorizationCode() } });
    expect(status).toBe(403);
  });

  it("checks the nonce the authorization request sent against the ID token the code brings", async () => {
    oidc.setIdentity({ email: "admin@example.com" });
    const exchange = async (nonce: string) =>
      call("POST", "/auth/google", { body: { code: await authorizationCode({ nonce: "asked-nonce" }), nonce } });
    expect((await exchange("asked-nonce")).status).toBe(200);
    const other = await exchange("another-nonce");
    expect(other.status).toBe(401);
    expect(other.body.message).toBe(
      "Google sign-in could not be verified: the ID token was issued for another sign-in",
    );
    const malformed = await call("POST", "/auth/google", {
      body: { code: "c", code_verifier: "short", nonce: "with space" },
    });
    expect(malformed.status).toBe(400);
  });

  it("takes an address as verified only when the token says so, and a token only with an expiry", async () => {
    oidc.setIdentity({ email: "admin@example.com" });
    const signIn = async (claims: Record<string, unknown>) =>
      call("POST", "/auth/google", { body: { id_token: await oidc.idToken(claims) } });
    expect((await signIn({})).status).toBe(200);
    expect((await signIn({ email_verified: "true" })).status).toBe(200);
    for (const claims of [{ email_verified: undefined }, { email_verified: "false" }, { email_verified: null }]) {
      const refused = await signIn(claims);
      expect(refused.status, JSON.stringify(claims)).toBe(403);
      expect(refused.body.message).toBe("The Google account admin@example.com has no verified email address");
    }
    const neverLapsing = await signIn({ exp: undefined });
    expect(neverLapsing.status).toBe(401);
    expect(neverLapsing.body.message).toMatch(/^Google sign-in could not be verified/);
  });

  it("verifies One Tap ID tokens: audience and signature are checked", async () => {
    oidc.setIdentity({ email: "admin@example.com" });
    const good = await call("POST", "/auth/google", { body: { id_token: await oidc.idToken() } });
    expect(good.status).toBe(200);
    const wrongAudience = await call("POST", "/auth/google", {
      body: { id_token: await oidc.idToken({ aud: "someone-else" }) },
    });
    expect(wrongAudience.status).toBe(401);
    const forged = await new SignJWT({ email: "admin@example.com", aud: "console-test-client", iss: oidc.url })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("guess"));
    expect((await call("POST", "/auth/google", { body: { id_token: forged } })).status).toBe(401);
  });

  it("rejects a code the provider does not accept", async () => {
    const { status } = await call("POST", "/auth/google", { body: {} });
    expect(status).toBe(400);
  });
});

describe("bearer authentication on /v1", () => {
  it("answers 401 JSON for a missing, malformed, forged or expired token", async () => {
    expect(await call("GET", "/v1/users/get_info")).toEqual({
      status: 401,
      body: { message: "Authentication required" },
    });
    expect((await call("GET", "/v1/apps", { token: "garbage" })).body).toEqual({ message: "Invalid token" });
    const forged = await new SignJWT({ typ: "user" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("1")
      .setIssuer("assistant-console-api")
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("another-secret"));
    expect((await call("GET", "/v1/apps", { token: forged })).status).toBe(401);
    const expired = await new SignJWT({ typ: "user" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("1")
      .setIssuer("assistant-console-api")
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(TEST_SECRETS.jwtSecret));
    expect(await call("GET", "/v1/apps", { token: expired })).toEqual({
      status: 401,
      body: { message: "Token expired" },
    });
  });
});

describe("signing out", () => {
  it("stops the sign-in's user token at once, not at its expiry; other sign-ins keep working", async () => {
    const session = await signInAs(host, "client.user@example.com");
    const other = await signInAs(host, "client.user@example.com");
    expect((await call("GET", "/v1/users/get_info", { token: session.user_token })).status).toBe(200);
    expect((await call("POST", "/v1/users/logout", { body: { refresh_token: session.refresh_token } })).status).toBe(
      200,
    );
    expect(await call("GET", "/v1/users/get_info", { token: session.user_token })).toEqual({
      status: 401,
      body: { message: "Signed out" },
    });
    expect((await call("GET", "/v1/users/get_info", { token: other.user_token })).status).toBe(200);
  });

  it("refuses a refresh token far longer than any it issues, before looking it up", async () => {
    const refused = await call("POST", "/v1/users/logout", { body: { refresh_token: "x".repeat(201) } });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual(["refresh_token"]);
  });

  it("refuses a user token that names no sign-in", async () => {
    const bare = await new SignJWT({ typ: "user" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("1")
      .setIssuer("assistant-console-api")
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(TEST_SECRETS.jwtSecret));
    expect(await call("GET", "/v1/apps", { token: bare })).toEqual({ status: 401, body: { message: "Invalid token" } });
  });
});

describe("refresh token rotation", () => {
  it("rotates: the new pair works and the old refresh token is spent", async () => {
    const first = await signInAs(host, "admin@example.com");
    const rotated = await call("POST", "/v1/users/generate_access_token", {
      body: { refresh_token: first.refresh_token },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(first.refresh_token);
    expect((await call("GET", "/v1/users/get_info", { token: rotated.body.user_token })).status).toBe(200);
    const again = await call("POST", "/v1/users/generate_access_token", {
      body: { refresh_token: rotated.body.refresh_token },
    });
    expect(again.status).toBe(200);
  });

  it("revokes the whole family when a rotated token is presented again", async () => {
    const first = await signInAs(host, "admin@example.com");
    const second = (
      await call("POST", "/v1/users/generate_access_token", { body: { refresh_token: first.refresh_token } })
    ).body;
    // Someone replays the first (stolen) token: refused, and the legitimate newer one dies with it.
    const replay = await call("POST", "/v1/users/generate_access_token", {
      body: { refresh_token: first.refresh_token },
    });
    expect(replay).toEqual({ status: 401, body: { message: "Invalid refresh token" } });
    const legit = await call("POST", "/v1/users/generate_access_token", {
      body: { refresh_token: second.refresh_token },
    });
    expect(legit.status).toBe(401);
    // Another sign-in (another family) is unaffected.
    const other = await signInAs(host, "admin@example.com");
    expect(
      (await call("POST", "/v1/users/generate_access_token", { body: { refresh_token: other.refresh_token } })).status,
    ).toBe(200);
  });

  it("ends a sign-in when its time is up however often it was used: each rotation keeps the sign-in's end", async () => {
    const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");
    const endOf = async (token: string) =>
      (
        await host.deps.db
          .select()
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, hashOf(token)))
      )[0].expiresAt;
    const first = await signInAs(host, "client.user@example.com");
    // The sign-in's end, brought near; using it must not push it back.
    await host.deps.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() + 2_000) })
      .where(eq(refreshTokens.tokenHash, hashOf(first.refresh_token)));
    const end = await endOf(first.refresh_token);
    const second = (
      await call("POST", "/v1/users/generate_access_token", { body: { refresh_token: first.refresh_token } })
    ).body;
    expect(await endOf(second.refresh_token)).toEqual(end);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(
      await call("POST", "/v1/users/generate_access_token", { body: { refresh_token: second.refresh_token } }),
    ).toEqual({ status: 401, body: { message: "Refresh token expired" } });
  });

  it("lets only one of two concurrent refreshes with the same token win", async () => {
    const pair = await signInAs(host, "admin@example.com");
    const results = await Promise.all(
      [1, 2].map(() =>
        call("POST", "/v1/users/generate_access_token", { body: { refresh_token: pair.refresh_token } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it("answers 400 for a missing refresh token and 401 for an unknown one", async () => {
    expect((await call("POST", "/v1/users/generate_access_token", { body: {} })).status).toBe(400);
    expect((await call("POST", "/v1/users/generate_access_token", { body: { refresh_token: "nope" } })).status).toBe(
      401,
    );
  });
});
