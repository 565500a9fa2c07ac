import { describe, expect, it } from "vitest";
import { blankIfInvisible, cutText, hasBrokenCharacters, shortened } from "./text";
import { requiredText } from "./common";

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

describe("values that show nothing", () => {
  it("are blank whatever invisible characters they hold; visible text stays as written", () => {
    expect(blankIfInvisible("\u200b\u2060")).toBe("");
    expect(blankIfInvisible(" \u00ad\ufeff\u200e ")).toBe("");
    expect(blankIfInvisible("Ada\u200b")).toBe("Ada\u200b");
    expect(blankIfInvisible("👨‍👩‍👧")).toBe("👨‍👩‍👧");
  });

  it("are refused where a text is required", () => {
    const parsed = requiredText(200).safeParse("\u200b\u2060");
    expect(parsed.error?.issues[0]?.message).toBe("This string is required");
    expect(requiredText(200).parse(" Northfield\u200b ")).toBe("Northfield\u200b");
  });
});

describe("text shortened for a screen", () => {
  it("keeps text of at most its length whole, and cuts longer text by characters, ending in …", () => {
    expect(shortened("Parking", 7)).toBe("Parking");
    expect(shortened("Parking permits", 8)).toBe("Parking…");
    // Counted in characters: an emoji is one, and never halved.
    expect(shortened("🚗🚗🚗🚗", 3)).toBe("🚗🚗…");
    expect(shortened("🚗🚗🚗", 3)).toBe("🚗🚗🚗");
  });
});
