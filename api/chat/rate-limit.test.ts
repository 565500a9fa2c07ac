import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit";

/** A limiter on a clock the test moves. */
function limiterAt(perMinute: number, maxWindows?: number) {
  let now = 0;
  const limiter = new RateLimiter(
    () => perMinute,
    () => now,
    maxWindows,
  );
  return { limiter, advance: (ms: number) => (now += ms) };
}

describe("the chat's rate limiter", () => {
  it("lets each key through its limit once a minute", () => {
    const { limiter, advance } = limiterAt(2);
    expect([1, 2, 3].map(() => limiter.allow("key\nvisitor"))).toEqual([true, true, false]);
    expect(limiter.allow("key\nanother visitor")).toBe(true);
    advance(60_000);
    expect(limiter.allow("key\nvisitor")).toBe(true);
  });

  it("says how long a refused key waits: until its window ends", () => {
    const { limiter, advance } = limiterAt(1);
    limiter.allow("key\nvisitor");
    advance(45_500);
    expect(limiter.allow("key\nvisitor")).toBe(false);
    expect(limiter.retryAfterSeconds("key\nvisitor")).toBe(15);
    advance(14_900);
    expect(limiter.retryAfterSeconds("key\nvisitor")).toBe(1);
  });

  it("forgets ended windows as new ones start, so they do not pile up", () => {
    const { limiter, advance } = limiterAt(5);
    for (let i = 0; i < 1_000; i++) limiter.allow(`key\n192.0.2.${i}`);
    expect(limiter.size).toBe(1_000);
    advance(60_000);
    limiter.allow("key\n198.51.100.1");
    expect(limiter.size).toBe(1);
  });

  it("keeps a renewed window in its place by age: the ones that ended before it still go first", () => {
    const { limiter, advance } = limiterAt(5);
    limiter.allow("a");
    advance(30_000);
    limiter.allow("b");
    advance(30_000);
    limiter.allow("a"); // a's window ended: renewed now, after b's
    advance(30_000);
    limiter.allow("c"); // b's window ended; a's runs on
    expect(limiter.size).toBe(2);
    // a's renewed window still counts its first request: four more of five go through.
    expect([1, 2, 3, 4, 5].map(() => limiter.allow("a"))).toEqual([true, true, true, true, false]);
  });

  it("holds at most its cap of windows, forgetting the oldest first", () => {
    const { limiter } = limiterAt(1, 3);
    expect([limiter.allow("a"), limiter.allow("a")]).toEqual([true, false]);
    for (const key of ["b", "c", "d"]) limiter.allow(key);
    expect(limiter.size).toBe(3);
    // a's window was the oldest: forgotten, so a starts counting again.
    expect(limiter.allow("a")).toBe(true);
    expect(limiter.allow("d")).toBe(false);
  });
});
