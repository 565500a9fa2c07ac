import { describe, expect, it } from "vitest";
import { ClaimsInHand } from "./in-hand";

describe("a worker's claims in hand", () => {
  it("are what its sweep leaves alone: claimed rows until they are dropped", async () => {
    const inHand = new ClaimsInHand();
    await inHand.claim(async () => [{ id: 1 }, { id: 2 }, { id: 3 }]);
    inHand.drop([2]);
    expect(await inHand.sweep(async (held) => held)).toEqual([1, 3]);
  });

  it("leave every row of the worker to a sweep that runs while a claim is on its way", async () => {
    const inHand = new ClaimsInHand();
    let answer: (rows: { id: number }[]) => void = () => {};
    const claim = inHand.claim(() => new Promise<{ id: number }[]>((resolve) => (answer = resolve)));
    // The claim may be committed with its answer not yet back: no row of the worker's may be put back.
    expect(await inHand.sweep(async (held) => held)).toBeNull();
    answer([{ id: 7 }]);
    await claim;
    expect(await inHand.sweep(async (held) => held)).toEqual([7]);
  });

  it("make a claim wait for a sweep under way, which read what was in hand before the claim", async () => {
    const inHand = new ClaimsInHand();
    const order: string[] = [];
    let finish: () => void = () => {};
    const sweep = inHand.sweep(async (held) => {
      await new Promise<void>((resolve) => (finish = resolve));
      order.push(`swept ${JSON.stringify(held)}`);
    });
    const claim = inHand.claim(async () => {
      order.push("claimed");
      return [{ id: 4 }];
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    finish();
    await Promise.all([sweep, claim]);
    expect(order).toEqual(["swept []", "claimed"]);
  });
});
