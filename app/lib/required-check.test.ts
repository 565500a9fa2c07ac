import { describe, expect, it } from "vitest";
import { checkRequiredRows, hasErrors, REQUIRED_MESSAGES, requiredErrors } from "./required-check";

describe("requiredErrors (the spec's generic required check)", () => {
  it("passes an object whose fields are all filled", () => {
    expect(requiredErrors({ email: "a@example.com", name: "Ann", tags: ["x"], weight: 0 })).toEqual({});
  });

  it("says 'This field is required' for null and undefined", () => {
    expect(requiredErrors({ a: null, b: undefined })).toEqual({
      a: ["This field is required"],
      b: ["This field is required"],
    });
  });

  it("says 'This string is required' for an empty or blank string", () => {
    expect(requiredErrors({ name: "", email: "   " })).toEqual({
      name: ["This string is required"],
      email: ["This string is required"],
    });
  });

  it("never checks numbers, not even zero or NaN", () => {
    expect(requiredErrors({ penalty: 0, refresh: Number.NaN, score: -1 })).toEqual({});
  });

  it("says 'This array is required' for an empty array and names each empty item", () => {
    expect(requiredErrors({ tags: [] })).toEqual({ tags: ["This array is required"] });
    expect(requiredErrors({ tags: ["ok", "", null, 3, " "] })).toEqual({
      "tags.1": ["This array item is required"],
      "tags.2": ["This array item is required"],
      "tags.4": ["This array item is required"],
    });
  });

  it("says 'Unsupported data type' for anything else", () => {
    expect(requiredErrors({ flag: true, meta: { a: 1 }, when: new Date(0), items: [{}] })).toEqual({
      flag: ["Unsupported data type"],
      meta: ["Unsupported data type"],
      when: ["Unsupported data type"],
      "items.0": ["Unsupported data type"],
    });
  });

  it("checks only the named fields when given", () => {
    const row = { id: "", email: "", name: "Ann", user_type: "" };
    expect(requiredErrors(row, ["email", "name", "user_type"])).toEqual({
      email: [REQUIRED_MESSAGES.string],
      user_type: [REQUIRED_MESSAGES.string],
    });
  });

  it("treats a missing named field as required", () => {
    expect(requiredErrors({} as { role?: string }, ["role"])).toEqual({ role: ["This field is required"] });
  });

  it("hasErrors tells an empty result from a failing one", () => {
    expect(hasErrors({})).toBe(false);
    expect(hasErrors(null)).toBe(false);
    expect(hasErrors({ a: ["x"] })).toBe(true);
  });
});

describe("checkRequiredRows", () => {
  const fields = ["email", "name"] as const;

  it("flags the failing rows and stops the save", () => {
    const result = checkRequiredRows(
      [
        { email: "a@example.com", name: "Ann" },
        { email: "", name: "" },
        { email: "c@example.com", name: "Cy" },
        { email: "d@example.com", name: "" },
      ],
      fields,
    );
    expect(result.ok).toBe(false);
    expect(result.flagged).toEqual([1, 3]);
    expect(result.errors).toEqual([
      null,
      { email: ["This string is required"], name: ["This string is required"] },
      null,
      { name: ["This string is required"] },
    ]);
  });

  it("lets the save go ahead when every row passes (and for no rows)", () => {
    expect(checkRequiredRows([{ email: "a@example.com", name: "Ann" }], fields)).toEqual({
      ok: true,
      errors: [null],
      flagged: [],
    });
    expect(checkRequiredRows([], fields)).toEqual({ ok: true, errors: [], flagged: [] });
  });
});
