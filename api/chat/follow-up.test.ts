import { describe, expect, it } from "vitest";
import { followUpContext, followUpSearch, pointsBack } from "./follow-up";

describe("follow-up questions", () => {
  it("point back with a pronoun, a demonstrative or an opening 'and' / 'what about'", () => {
    for (const question of [
      "How much does it cost?",
      "Where did she teach?",
      "When did these rebellions take place?",
      "What about housing?",
      "And for spring?",
    ]) {
      expect(pointsBack(question), question).toBe(true);
    }
    for (const question of [
      "When do applications for fall close?",
      "Is there a campus tour?",
      "What is the program that trains nurses?",
    ]) {
      expect(pointsBack(question), question).toBe(false);
    }
  });

  it("lean on the previous question only when they point back and there is one", () => {
    expect(followUpContext("What are its admission requirements?", "Tell me about the nursing program")).toBe(
      "Tell me about the nursing program",
    );
    expect(
      followUpContext("What are the admission requirements?", "Tell me about the nursing program"),
    ).toBeUndefined();
    expect(followUpContext("What are its admission requirements?", null)).toBeUndefined();
  });

  it("search a follow-up asking for a kind of answer with no key word of its own by the previous question", () => {
    const previous = "Tell me about the nursing program";
    expect(followUpSearch("How much does it cost?", previous)).toEqual({ query: previous, ownWords: false });
    expect(followUpSearch("Where is it?", previous)).toEqual({ query: previous, ownWords: false });
    // Its own key words: searched by them, the previous question beside them.
    expect(followUpSearch("What are its admission requirements?", previous)).toEqual({
      query: "What are its admission requirements?",
      context: previous,
      ownWords: true,
    });
    // No kind of answer asked for, or nothing before: searched as asked (and finding nothing).
    expect(followUpSearch("Why is it?", previous)).toEqual({ query: "Why is it?", context: previous, ownWords: true });
    expect(followUpSearch("How much does it cost?", null)).toEqual({ query: "How much does it cost?", ownWords: true });
  });
});
