import { describe, expect, it } from "vitest";
import { claimedUrls } from "./index-website";

/** A claim that hands out ids a batch at a time, counting its calls, until `total` are handed out. */
function batches(total: number, size: number) {
  let handed = 0;
  const calls: number[] = [];
  const claim = async () => {
    calls.push(handed);
    const rows = Array.from({ length: Math.min(size, total - handed) }, (_, i) => handed + i);
    handed += rows.length;
    return rows;
  };
  return { claim, calls };
}

describe("a job's claimed URLs", () => {
  it("claims the next batch while half a batch is still in hand, so lanes do not wait for it", async () => {
    const { claim, calls } = batches(100, 10);
    const next = claimedUrls(claim, 10);
    const taken: (number | null)[] = [];
    for (let i = 0; i < 5; i++) taken.push(await next());
    expect(calls).toEqual([0]);
    taken.push(await next());
    // Four left in hand: the next claim is already on its way, without anyone waiting for it.
    expect(calls).toEqual([0, 10]);
    for (let i = 0; i < 4; i++) taken.push(await next());
    await Promise.resolve();
    expect(taken).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await next()).toBe(10);
  });

  it("hands every URL out once and then null, however many lanes ask at once", async () => {
    const { claim, calls } = batches(57, 10);
    const next = claimedUrls(claim, 10);
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let row = await next(); row !== null; row = await next()) seen.push(row);
      }),
    );
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 57 }, (_, i) => i));
    // Six batches and the empty claim that said nothing was left.
    expect(calls).toHaveLength(7);
    expect(await next()).toBeNull();
  });

  it("fails the lane that waits for a claim made ahead that failed, as its own claim would, and claims again after", async () => {
    let attempt = 0;
    const next = claimedUrls(async () => {
      attempt++;
      if (attempt === 2) throw new Error("the database went away");
      return attempt > 3 ? [] : [attempt * 10, attempt * 10 + 1];
    }, 2);
    expect(await next()).toBe(10);
    expect(await next()).toBe(11);
    // Nothing in hand but the claim made ahead, which failed: the job meets the error (and is retried).
    await expect(next()).rejects.toThrow("the database went away");
    expect(await next()).toBe(30);
    expect(await next()).toBe(31);
    expect(await next()).toBeNull();
    expect(attempt).toBe(4);
  });
});
