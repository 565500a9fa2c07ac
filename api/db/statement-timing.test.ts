import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAs, startTestHost } from "../../tests/support/test-host";

/** Every API answer reports its database time and statements (Server-Timing: db), on either database. */
let host: Awaited<ReturnType<typeof startTestHost>>;
let token: string;

beforeAll(async () => {
  host = await startTestHost();
  token = (await signInAs(host, "admin@example.com")).user_token;
});
afterAll(() => host?.close());

const databaseTiming = (response: Response) => {
  const metric = /(?:^|,)\s*db;dur=([\d.]+);desc="(\d+) statements"/.exec(response.headers.get("Server-Timing") ?? "");
  return metric ? { ms: Number(metric[1]), statements: Number(metric[2]) } : null;
};

describe("the API's Server-Timing", () => {
  it("counts the statements an answer ran and the time they took", async () => {
    const response = await host.api.request("/v1/apps?page=1&page_size=10", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const timing = databaseTiming(response);
    expect(timing?.statements).toBeGreaterThan(0);
    expect(timing?.ms).toBeGreaterThan(0);
  });

  it("counts each answer's own statements only, and reports refusals too", async () => {
    const refused = await host.api.request("/v1/apps?page=1&page_size=10");
    expect(refused.status).toBe(401);
    expect(databaseTiming(refused)).toEqual({ ms: 0, statements: 0 });
  });
});
