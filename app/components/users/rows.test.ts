import { describe, expect, it } from "vitest";
import { accessRowErrors, blankAccessRow, blankUserRow, userRowErrors } from "./rows";

describe("a person's row before a save", () => {
  it("names a blank field and an address the API would refuse together", () => {
    expect(userRowErrors({ ...blankUserRow(), email: "not-an-email" })).toEqual({
      email: ["Enter a valid email address"],
      name: ["This string is required"],
    });
    expect(accessRowErrors({ ...blankAccessRow(), email: "a@b", name: "A" })).toEqual({
      email: ["Enter a valid email address"],
    });
  });

  it("takes an address as the API does: trimmed and in any case", () => {
    expect(userRowErrors({ ...blankUserRow(), email: " Dana.Q@Example.COM ", name: "Dana" })).toBeNull();
    expect(userRowErrors({ ...blankUserRow(), email: "", name: "Dana" })).toEqual({
      email: ["This string is required"],
    });
  });
});
