import { describe, expect, it } from "vitest";
import { questionsOf } from "./several-questions";

describe("the questions a message asks", () => {
  it("are its sentences that end as a question, when there are two or three", () => {
    expect(
      questionsOf("My daughter wants to study nursing. How many does it admit? Is there housing? And the deadline?"),
    ).toEqual(["How many does it admit?", "Is there housing?", "And the deadline?"]);
    expect(questionsOf("How much is tuition? Is there parking?")).toEqual([
      "How much is tuition?",
      "Is there parking?",
    ]);
    expect(questionsOf("学费是多少？宿舍在哪里？")).toEqual(["学费是多少？", "宿舍在哪里？"]);
  });

  it("are none when it asks one, more than three, or a sentence without a word of its own", () => {
    expect(questionsOf("How much is tuition?")).toBeNull();
    expect(questionsOf("Thanks for your help. How much is the application fee?")).toBeNull();
    expect(questionsOf("Is there housing? Is there parking? Is there a gym? Is there a pool?")).toBeNull();
    expect(questionsOf("How much? Why?")).toBeNull();
    expect(questionsOf("What? When? Where? Who?")).toBeNull();
    // A sentence cut after an abbreviation is not a question of its own.
    expect(questionsOf("In what year was the Infantry Regiment No. 13 established?")).toBeNull();
  });
});
