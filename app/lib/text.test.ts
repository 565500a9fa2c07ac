import { describe, expect, it } from "vitest";
import { titleCase } from "./text";

describe("titleCase", () => {
  it("keeps acronyms' capitals and capitalises other words", () => {
    expect(titleCase("ai-finetuning")).toBe("AI Finetuning");
    expect(titleCase("knowledge_store urls")).toBe("Knowledge Store URLs");
  });

  it("reads names of Object's own properties as plain words", () => {
    expect(titleCase("constructor")).toBe("Constructor");
    expect(titleCase("to-string")).toBe("To String");
    expect(titleCase("__proto__")).toBe("Proto");
    expect(titleCase("has_own_property")).toBe("Has Own Property");
  });
});
