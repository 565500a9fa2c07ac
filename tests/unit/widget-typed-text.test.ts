import { describe, expect, it } from "vitest";
import { stringProblem } from "../../contract/safe-strings";
import { typedText } from "../../widget/typed-text";

describe("the widget's typed text", () => {
  it("turns pasted line controls into spaces and drops invisible ones, so the chat call takes it", () => {
    const pasted = "What about\u000bnursing?\u0085And\u000cfees\u0007\u009b?";
    expect(stringProblem(pasted)).toBe("Contains a control character");
    expect(typedText(pasted)).toBe("What about nursing? And fees?");
    expect(stringProblem(typedText(pasted))).toBeNull();
  });

  it("drops direction controls, which the chat call refuses, and keeps the marks right-to-left text needs", () => {
    const pasted = "\u202bمرحبا\u202c and \u2067שלום\u2069 \u202eevil";
    expect(stringProblem(pasted)).toBe("Contains a text-direction control character (U+202A–U+202E, U+2066–U+2069)");
    expect(typedText(pasted)).toBe("مرحبا and שלום evil");
    expect(typedText("שלום\u200f!")).toBe("שלום\u200f!");
    expect(stringProblem("שלום\u200f!")).toBeNull();
  });

  it("keeps tabs, line breaks and every printable character", () => {
    const text = "Line one\nLine\ttwo\r\n — café 学校 🙂";
    expect(typedText(text)).toBe(text);
  });
});
