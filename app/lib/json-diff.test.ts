import { describe, expect, it } from "vitest";
import { diffJson } from "./json-diff";

describe("a per-field diff of two JSON values", () => {
  it("lists changed, added and removed fields, naming list items by their name-like field", () => {
    const before = [
      { id: 1, internal_name: "ai_personality_guidelines", prompt_input_raw: "Be brief.", metadata: {} },
      { id: 2, internal_name: "sensitive_topics", prompt_input_raw: "Visas", metadata: { disclaimer: "Ask the office." } },
    ];
    const after = [{ id: 1, internal_name: "ai_personality_guidelines", prompt_input_raw: "Be kind.", metadata: { tone: "warm" } }];
    expect(diffJson(before, after)).toEqual([
      { path: "1 · ai_personality_guidelines › prompt_input_raw", change: "changed", before: "Be brief.", after: "Be kind." },
      { path: "1 · ai_personality_guidelines › metadata › tone", change: "added", before: null, after: "warm" },
      { path: "1 · ai_personality_guidelines › metadata", change: "removed", before: "{}", after: null },
      { path: "2 · sensitive_topics › id", change: "removed", before: "2", after: null },
      { path: "2 · sensitive_topics › internal_name", change: "removed", before: "sensitive_topics", after: null },
      { path: "2 · sensitive_topics › prompt_input_raw", change: "removed", before: "Visas", after: null },
      { path: "2 · sensitive_topics › metadata › disclaimer", change: "removed", before: "Ask the office.", after: null },
    ]);
  });

  it("treats nothing before as everything added, tells a number from its text, and finds nothing in equal values", () => {
    expect(diffJson(null, { url: "https://a.edu/", tags: [] })).toEqual([
      { path: "url", change: "added", before: null, after: "https://a.edu/" },
      { path: "tags", change: "added", before: null, after: "[]" },
    ]);
    expect(diffJson({ size: 1 }, { size: "1" })).toEqual([{ path: "size", change: "changed", before: "1", after: "1" }]);
    expect(diffJson({ a: [1, { b: true }] }, { a: [1, { b: true }] })).toEqual([]);
    expect(diffJson("x", "y")).toEqual([{ path: "(value)", change: "changed", before: "x", after: "y" }]);
  });
});
