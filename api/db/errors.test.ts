import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { errorResponse } from "../http/route";
import { DATABASE_UNAVAILABLE, inputErrorOf, isDatabaseUnavailable } from "./errors";

/** A driver error as Drizzle wraps it: the Postgres code on its cause. */
const wrapped = (code: string) =>
  Object.assign(new Error("Failed query"), { cause: Object.assign(new Error(), { code }) });

describe("a database refusal the input caused", () => {
  it("is a 4xx with words for people, whether the driver's error comes bare or wrapped", () => {
    expect(inputErrorOf(wrapped("23505"))).toEqual({
      status: 409,
      message: "A value in the request is already taken; reload and try again",
    });
    expect(inputErrorOf(Object.assign(new Error(), { code: "23503" }))).toMatchObject({ status: 404 });
    expect(inputErrorOf(wrapped("22003"))).toMatchObject({ status: 400 });
  });

  it("leaves every other failure a 500, the server's own", () => {
    expect(inputErrorOf(wrapped("40P01"))).toBeNull();
    expect(inputErrorOf(new Error("no code"))).toBeNull();
  });
});

describe("a database that cannot be reached", () => {
  const answerTo = async (error: unknown) => {
    const app = new Hono();
    // What the answer says, not what is logged: a 500 is logged as an error, which tests otherwise refuse.
    const silent = { info: () => {}, warn: () => {}, error: () => {} } as unknown as Parameters<
      typeof errorResponse
    >[2];
    app.get("/x", (c) => errorResponse(error, c, silent));
    const response = await app.request("/x");
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
  };

  it("is a 503 to try again, whether Postgres says so, the driver does, or the connection is refused", async () => {
    const cut = Object.assign(new Error("Failed query"), { cause: new Error("Connection terminated unexpectedly") });
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    for (const error of [wrapped("57P01"), wrapped("08006"), wrapped("53300"), cut, refused]) {
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(await answerTo(error)).toEqual({
        status: 503,
        retryAfter: "5",
        body: { message: DATABASE_UNAVAILABLE },
      });
    }
  });

  it("is not a refusal of the statement, nor a failure of ours", async () => {
    expect(isDatabaseUnavailable(wrapped("23505"))).toBe(false);
    expect(isDatabaseUnavailable(new Error("no code"))).toBe(false);
    expect((await answerTo(new Error("no code"))).status).toBe(500);
  });
});
