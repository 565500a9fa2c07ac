import { describe, expect, it } from "vitest";
import { cutText, hasBrokenCharacters } from "./text";

describe("text that stays whole", () => {
  it("cuts before an emoji rather than through it", () => {
    const text = `${"a".repeat(9)}😀…`;
    expect(cutText(text, 10)).toBe("a".repeat(9));
    expect(cutText(text, 11)).toBe(`${"a".repeat(9)}😀`);
    expect(cutText("short", 10)).toBe("short");
    // What the cut leaves always encodes to the same bytes it decodes from.
    for (let max = 1; max <= text.length; max++) {
      const cut = cutText(text, max);
      expect(Buffer.from(Buffer.from(cut, "utf8").toString("utf8")).equals(Buffer.from(cut, "utf8"))).toBe(true);
      expect(Buffer.from(cut, "utf8").toString("utf8")).toBe(cut);
    }
  });

  it("finds a lone half of an emoji anywhere in a JSON body, and nothing in whole text", () => {
    expect(hasBrokenCharacters(JSON.parse('{"a":["ok","\\ud83d"]}'))).toBe(true);
    expect(hasBrokenCharacters(JSON.parse('{"\\ude00":1}'))).toBe(true);
    expect(hasBrokenCharacters({ a: "Café … 😀👩🏽‍💻 مرحبا 你好", n: 1, b: true, z: null })).toBe(false);
  });
});
