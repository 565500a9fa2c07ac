import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { CallerScope, type ConsoleCallEnv } from "./caller";

let host: Awaited<ReturnType<typeof startTestHost>>;

beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host?.close();
});

/** An API call as the in-process console makes it during one page, with that page's scope. */
function pageCaller(scope: CallerScope) {
  const env: ConsoleCallEnv = { callerScope: scope };
  return async (method: string, path: string, token: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await host.api.fetch(
      new Request(`http://console${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      env,
    );
    return { status: response.status, body: await response.json() };
  };
}

describe("the callers of one console page", () => {
  it("are authenticated once for the page's reads, and again after a write in the same page", async () => {
    const session = await signInAs(host, "client.user@example.com");
    const call = pageCaller(new CallerScope());
    expect((await call("GET", "/v1/users/get_info", session.user_token)).status).toBe(200);
    // Signed out elsewhere (another tab) while this page is still rendering: its reads keep the caller they had.
    expect(
      (await apiCaller(host)("POST", "/v1/users/logout", { body: { refresh_token: session.refresh_token } })).status,
    ).toBe(200);
    expect((await call("GET", "/v1/apps", session.user_token)).status).toBe(200);
    // A write in the page clears what it knew: the write and every read after it see the sign-out.
    expect(
      (await call("POST", "/v1/users/logout", session.user_token, { refresh_token: session.refresh_token })).status,
    ).toBe(200);
    expect(await call("GET", "/v1/apps", session.user_token)).toEqual({ status: 401, body: { message: "Signed out" } });
  });

  it("does not reach another page, nor a call from outside the console", async () => {
    const session = await signInAs(host, "client.user@example.com");
    const page = pageCaller(new CallerScope());
    expect((await page("GET", "/v1/users/get_info", session.user_token)).status).toBe(200);
    expect(
      (await apiCaller(host)("POST", "/v1/users/logout", { body: { refresh_token: session.refresh_token } })).status,
    ).toBe(200);
    expect(await pageCaller(new CallerScope())("GET", "/v1/apps", session.user_token)).toEqual({
      status: 401,
      body: { message: "Signed out" },
    });
    expect(await apiCaller(host)("GET", "/v1/apps", { token: session.user_token })).toEqual({
      status: 401,
      body: { message: "Signed out" },
    });
  });

  it("does not keep a refusal: a token refused once is checked again on the next read", async () => {
    const call = pageCaller(new CallerScope());
    expect((await call("GET", "/v1/apps", "not-a-token")).status).toBe(401);
    const session = await signInAs(host, "client.user@example.com");
    expect((await call("GET", "/v1/apps", session.user_token)).status).toBe(200);
  });
});
