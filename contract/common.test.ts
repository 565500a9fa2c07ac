import { describe, expect, it } from "vitest";
import { IdParam } from "./common";
import { MAX_ID } from "./values/common";

describe("IdParam", () => {
  it("reads an id written in decimal digits", () => {
    expect(IdParam.parse("1")).toBe(1);
    expect(IdParam.parse("42")).toBe(42);
    expect(IdParam.parse(String(MAX_ID))).toBe(MAX_ID);
  });

  it("refuses other spellings of a number, so one id has one address", () => {
    for (const spelling of ["1e3", "0x1", "01", "1.0", "+1", " 1", "1 ", "0", "-1", "", "٣"]) {
      const parsed = IdParam.safeParse(spelling);
      expect(parsed.success, spelling).toBe(false);
      expect(parsed.error?.issues[0]?.message, spelling).toBe("Not a valid id");
    }
  });

  it("refuses an id past the largest a row can have", () => {
    expect(IdParam.safeParse(String(MAX_ID + 1)).success).toBe(false);
    expect(IdParam.safeParse("9".repeat(40)).success).toBe(false);
  });
});
