import { describe, expect, it } from "vitest";
import { addressTermsOf, gapStateOf } from "./gap-pages";

describe("a gap's closest pages", () => {
  it("look for a question's content words as stems, the longest first, without stop words or short runs", () => {
    expect(addressTermsOf("What are the tuition fees for international students?")).toEqual([
      "student",
      "tuition",
      "intern",
      "fee",
    ]);
    expect(addressTermsOf("Où est la résidence?")).toContain("resid");
    expect(addressTermsOf("Is it on?")).toEqual([]);
    expect(
      addressTermsOf(
        "a b c d e f g h i j k l m n o p q r s t u v w x y z alpha bravo charlie delta echo foxtrot golf hotel",
      ),
    ).toHaveLength(6);
  });

  it("say where a page stands in words an operator acts on", () => {
    expect(gapStateOf("indexed")).toBe("indexed");
    for (const status of ["pending_review", "sitemap_generated", "to_be_indexed", "sent_for_indexing"])
      expect(gapStateOf(status)).toBe("not_indexed");
    expect(gapStateOf("skipped")).toBe("skipped");
    expect(gapStateOf("failed_to_index")).toBe("failed");
    expect(gapStateOf("deleted")).toBe("deleted");
  });
});
