import { afterEach, describe, expect, it, vi } from "vitest";
import { apiConfigFromEnv } from "../config";
import { signUserToken, verifyUserToken } from "./tokens";

/** Verified tokens are remembered (tokens.ts): what a remembered token answers must not change. */
const configWith = (jwtSecret: string, ttlSeconds: number) => ({
  config: {
    ...apiConfigFromEnv({ ACCESS_TOKEN_TTL_SECONDS: String(ttlSeconds) }, { sessionSecrets: ["s"], jwtSecret }),
  },
});

afterEach(() => {
  vi.useRealTimers();
});

describe("a user token verified before", () => {
  it("answers the same user and sign-in again, and is refused as expired once its time is up", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-24T10:00:00Z"));
    const deps = configWith("first-secret", 60);
    const token = await signUserToken(7, "family-7", deps);
    expect(await verifyUserToken(token, deps)).toEqual({ userId: 7, familyId: "family-7" });
    vi.setSystemTime(new Date("2026-11-24T10:00:59Z"));
    expect(await verifyUserToken(token, deps)).toEqual({ userId: 7, familyId: "family-7" });
    vi.setSystemTime(new Date("2026-11-24T10:01:00Z"));
    await expect(verifyUserToken(token, deps)).rejects.toMatchObject({ status: 401, message: "Token expired" });
  });

  it("is not taken on the word of another secret's verification", async () => {
    const first = configWith("first-secret", 600);
    const token = await signUserToken(8, "family-8", first);
    expect(await verifyUserToken(token, first)).toEqual({ userId: 8, familyId: "family-8" });
    await expect(verifyUserToken(token, configWith("second-secret", 600))).rejects.toMatchObject({
      status: 401,
      message: "Invalid token",
    });
  });

  it("does not make a token that differs by one character valid", async () => {
    const deps = configWith("first-secret", 600);
    const token = await signUserToken(9, "family-9", deps);
    await verifyUserToken(token, deps);
    // A character in the middle of the signature (the last one may only carry padding bits).
    const at = token.length - 10;
    const altered = token.slice(0, at) + (token[at] === "A" ? "B" : "A") + token.slice(at + 1);
    await expect(verifyUserToken(altered, deps)).rejects.toMatchObject({ status: 401, message: "Invalid token" });
  });
});
