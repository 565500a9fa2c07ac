import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleConfigFromEnv } from "../../server";
import { apiCaller, startTestHost, TEST_SECRETS } from "../../tests/support/test-host";
import { apiConfigFromEnv, devSignInEnabled } from "../config";

const google = { GOOGLE_CLIENT_ID: "id.apps.googleusercontent.com", GOOGLE_CLIENT_SECRET: "secret" };

describe("one rule for development sign-in", () => {
  const cases: [string, Record<string, string>, boolean][] = [
    ["npm start: the embedded demo in production mode", { NODE_ENV: "production" }, true],
    ["development mode", { NODE_ENV: "development" }, true],
    ["production on PostgreSQL", { NODE_ENV: "production", DATABASE_URL: "postgres://db/console" }, false],
    ["production against a remote API", { NODE_ENV: "production", API_URL: "https://api.example" }, false],
    ["Google configured", google, false],
    ["Google configured, in production", { ...google, NODE_ENV: "production" }, false],
    ["Google configured and asked for", { ...google, AUTH_DEV_LOGIN: "true" }, true],
    [
      "production on PostgreSQL, asked for",
      { NODE_ENV: "production", DATABASE_URL: "postgres://db/console", AUTH_DEV_LOGIN: "true" },
      true,
    ],
    ["turned off", { AUTH_DEV_LOGIN: "false" }, false],
  ];
  it.each(cases)("%s", (_name, env, expected) => {
    expect(devSignInEnabled(env)).toBe(expected);
    // The console's login screen and the API's endpoint read the same answer.
    expect(consoleConfigFromEnv(env, ["s"]).devLogin).toBe(expected);
    expect(apiConfigFromEnv(env, TEST_SECRETS).devLoginAllowed).toBe(expected);
  });
});

describe("POST /auth/dev with Google configured and AUTH_DEV_LOGIN unset", () => {
  let host: Awaited<ReturnType<typeof startTestHost>>;
  beforeAll(async () => {
    host = await startTestHost({}, google);
  });
  afterAll(() => host?.close());

  it("refuses, as the console hides the form", async () => {
    const { status, body } = await apiCaller(host)("POST", "/auth/dev", { body: { email: "admin@example.com" } });
    expect(status).toBe(403);
    expect(body).toEqual({ message: "Development sign-in is disabled on this server" });
    expect(body.user_token).toBeUndefined();
  });
});
