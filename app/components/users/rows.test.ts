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

  it("takes an address on an internationalised domain as the API does, and refuses one IDNA refuses", () => {
    for (const email of ["wang@xn--fsqu00a.xn--fiqs8s", "user@пример.рф", "Wang@例子.中国"])
      expect(userRowErrors({ ...blankUserRow(), email, name: "Wang" }), email).toBeNull();
    for (const email of ["user@xn--zz.com", "wang@例子", "user@example.123"])
      expect(userRowErrors({ ...blankUserRow(), email, name: "Wang" }), email).toEqual({
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
