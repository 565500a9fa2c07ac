import { describe, expect, it } from "vitest";
import type { SearchHit } from "../knowledge/index/search";
import { citedInOrder, modelContext } from "./generate";

const passage = (n: number, text = `Passage ${n}.`, score = 0.5) =>
  ({ chunkId: n, url: `https://example.edu/${n}`, text, score }) as SearchHit;
const passages = [1, 2, 3, 4, 5, 6].map((n) => passage(n));

describe("a model's citations", () => {
  it("keep the passages it cites, in the order it first cites them, numbered as the sources are listed", () => {
    const { text, cited } = citedInOrder("Tuition is $12,400 [4]. Housing is extra [2], see also [4].", passages, 3);
    expect(text).toBe("Tuition is $12,400 [1]. Housing is extra [2], see also [1].");
    expect(cited.map((p) => p.chunkId)).toEqual([4, 2]);
  });

  it("cite at most the operator's maximum, dropping the markers of the passages beyond it", () => {
    const { text, cited } = citedInOrder("One [5], two [3], three [6].", passages, 2);
    expect(text).toBe("One [1], two [2], three.");
    expect(cited.map((p) => p.chunkId)).toEqual([5, 3]);
  });

  it("read several numbers in one marker", () => {
    const { text, cited } = citedInOrder("Both halls are new [5, 2], and so is the library [2,9].", passages, 3);
    expect(text).toBe("Both halls are new [1, 2], and so is the library [2].");
    expect(cited.map((p) => p.chunkId)).toEqual([5, 2]);
  });

  it("drop numbers that name no passage, and cite nothing when none is named", () => {
    expect(citedInOrder("Closed on Sundays [0] [7] [12].", passages, 3)).toEqual({
      text: "Closed on Sundays.",
      cited: [],
    });
    expect(citedInOrder("Closed on Sundays.", passages, 3)).toEqual({ text: "Closed on Sundays.", cited: [] });
  });
});

describe("what a model reads", () => {
  it("is the quoted passage, then retrieval's in order while they fit in the budget, none penalised to nothing", () => {
    const long = "x".repeat(5_000);
    const hits = [passage(1, long), passage(2, long, 0), passage(3, long), passage(4, "short"), passage(5, long)];
    // The quoted passage (3) leads and is not repeated; 2 was penalised to nothing; 5 no longer fits.
    expect(modelContext(hits[2], hits).map((p) => p.chunkId)).toEqual([3, 1, 4]);
  });
});
