import { describe, expect, it } from "vitest";
import { noQuestionsText } from "./test-questions";

describe("noQuestionsText", () => {
  it("says a search matched nothing, naming it, rather than that there are no questions", () => {
    expect(noQuestionsText("velodrome")).toBe("No test questions match “velodrome”.");
    expect(noQuestionsText("")).toBe("No test questions yet.");
  });
});
