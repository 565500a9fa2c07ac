import { describe, expect, it } from "vitest";
import { storableText } from "./storable-text";

describe("text of a fetched page or PDF as it is stored", () => {
  it("drops NUL, the other control characters and halves of surrogate pairs, keeping tabs and line breaks", () => {
    expect(storableText("a\u0000b\u0007c\u007f\td\ne\r\nf")).toBe("abc\td\ne\r\nf");
    expect(storableText("x\ud800y\udc00z 😀")).toBe("xyz 😀");
  });

  it("drops text-direction embeddings, overrides and isolates, so a title cannot read as another", () => {
    expect(storableText("holiday\u202Egpj.exe\u200B")).toBe("holidaygpj.exe\u200B");
    expect(storableText("\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069text")).toBe("text");
  });

  it("keeps right-to-left text and its marks as written", () => {
    const hebrew = "שלום עולם \u200Fמחיר: 100 ₪";
    expect(storableText(hebrew)).toBe(hebrew);
    expect(storableText("عربي \u200E(2026)")).toBe("عربي \u200E(2026)");
  });
});
