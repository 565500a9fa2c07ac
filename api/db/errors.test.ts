import { describe, expect, it } from "vitest";
import { inputErrorOf } from "./errors";

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
