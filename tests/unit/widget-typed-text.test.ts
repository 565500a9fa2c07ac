import { describe, expect, it } from "vitest";
import { stringProblem } from "../../api/http/input-guard";
import { typedText } from "../../widget/typed-text";

describe("the widget's typed text", () => {
  it("turns pasted line controls into spaces and drops invisible ones, so the chat call takes it", () => {
    const pasted = "What about\u000bnursing?\u0085And\u000cfees\u0007\u009b?";
    expect(stringProblem(pasted)).toBe("Contains a control character");
    expect(typedText(pasted)).toBe("What about nursing? And fees?");
    expect(stringProblem(typedText(pasted))).toBeNull();
  });

  it("keeps tabs, line breaks and every printable character", () => {
    const text = "Line one\nLine\ttwo\r\n — café 学校 🙂";
    expect(typedText(text)).toBe(text);
  });
});
