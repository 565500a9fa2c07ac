import { describe, expect, it } from "vitest";
import {
  editDistance,
  editsAllowed,
  lettersOf,
  nearestStoredWord,
  passagesHolding,
  storedWords,
  type Vocabulary,
} from "./vocabulary";

const vocabularyOf = (words: Record<string, number>): Vocabulary => {
  const lists = new Map<number, { lexeme: string; passages: number }[]>();
  for (const [lexeme, passages] of Object.entries(words)) {
    const length = [...lexeme].length;
    lists.set(length, [...(lists.get(length) ?? []), { lexeme, passages }]);
  }
  return { byLength: new Map([...lists].map(([length, list]) => [length, storedWords(list)])) };
};

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and a swap of neighbouring letters as one edit each", () => {
    expect(editDistance("arpnet", "arpanet", 2)).toBe(1);
    expect(editDistance("geegen", "gegeen", 2)).toBe(1);
    expect(editDistance("gaurente", "guarante", 2)).toBe(2);
    expect(editDistance("kitten", "sitting", 5)).toBe(3);
    expect(editDistance("same", "same", 0)).toBe(0);
  });

  it("stops at the limit and counts letters, not UTF-16 units", () => {
    expect(editDistance("kitten", "sitting", 1)).toBe(2);
    expect(editDistance("abc", "abcdefgh", 2)).toBe(3);
    expect(editDistance("altpreussisch", "altpreußisch", 2)).toBe(2);
    expect(editDistance("𝔞bc", "abc", 1)).toBe(1);
  });
});

describe("lettersOf", () => {
  it("marks the letters a word holds, every letter beyond a–z on one bit", () => {
    expect(lettersOf("abc")).toBe(0b111);
    expect(lettersOf("cab")).toBe(lettersOf("abc"));
    expect(lettersOf("zürich")).toBe(lettersOf("zrich") | (1 << 26));
  });
});

describe("nearestStoredWord", () => {
  const stored = vocabularyOf({
    guarante: 4,
    arpanet: 8,
    telenet: 4,
    datanet: 3,
    network: 40,
    netwook: 1,
    date: 9,
    "2019": 5,
  });

  it("finds the stored word fewest edits away, the most used of equals", () => {
    expect(nearestStoredWord("gaurente", stored)).toBe("guarante");
    expect(nearestStoredWord("arpnet", stored)).toBe("arpanet");
    expect(nearestStoredWord("datnet", stored)).toBe("datanet");
    // "netwrok" is one edit from "network" (a swap) and one from "netwook": the more used wins.
    expect(nearestStoredWord("netwrok", stored)).toBe("network");
  });

  it("leaves short words, numbers and words far from every stored one alone", () => {
    expect(editsAllowed("data")).toBe(0);
    expect(nearestStoredWord("dat", stored)).toBeNull();
    expect(nearestStoredWord("2018", stored)).toBeNull();
    expect(nearestStoredWord("protocol", stored)).toBeNull();
  });
});

describe("passagesHolding", () => {
  it("finds each stored word's passage count whatever order the words were read in, and nothing for a word not read", () => {
    const stored = vocabularyOf({ museum: 12, harbor: 40, zürich: 2, kayak: 3, école: 5, ferry: 7, a: 1 });
    expect(
      ["museum", "harbor", "zürich", "kayak", "école", "ferry", "a"].map((word) => passagesHolding(stored, word)),
    ).toEqual([12, 40, 2, 3, 5, 7, 1]);
    expect(passagesHolding(stored, "harbour")).toBeUndefined();
    expect(passagesHolding(stored, "kayaks")).toBeUndefined();
    expect(passagesHolding(stored, "")).toBeUndefined();
  });
});
