import { describe, expect, it } from "vitest";
import { QUALITY_CHECK_DEFAULTS } from "@contract";
import type { QuestionTerm } from "../knowledge/index/search";
import { searchHit } from "../../tests/support/search-hit";
import { QUOTABLE_SHARE, answerConfidence, answerEvidence, type AnswerEvidence } from "./answer-confidence";

const hit = (urlId: number, score: number, relevance: number, held: string[]) =>
  searchHit({
    chunkId: urlId * 100 + Math.round(relevance),
    urlId,
    url: `https://example.edu/${urlId}`,
    baseScore: score,
    bm25: relevance,
    score,
    relevance,
    pageShare: score,
    near: score / 2,
    held,
  });

const terms: QuestionTerm[] = [
  { lexeme: "tuition", idf: 3, stored: true },
  { lexeme: "nurs", idf: 2, stored: true },
  { lexeme: "zanzibar", idf: 5, stored: false },
  { lexeme: "fee", idf: 1, stored: true, context: true },
];

describe("the evidence the quality check reads", () => {
  it("takes the best passage's figures, the question's own key words, and how many pages the best five span", () => {
    const hits = [
      hit(1, 0.5, 9, ["tuition", "nurs"]),
      hit(1, 0.3, 7, ["tuition"]),
      hit(2, 0.6, 4, ["tuition", "nurs"]),
      hit(3, 0.2, 2, ["nurs"]),
    ];
    expect(answerEvidence(hits, terms)).toEqual({
      best: 0.5,
      top: 0.6,
      keyWords: 3,
      page: 0.5,
      near: 0.25,
      // The rarest word the store holds is "tuition", which the best passage holds.
      rarest: true,
      pages: 3,
    } satisfies AnswerEvidence);
  });

  it("is all zero when retrieval found nothing", () => {
    expect(answerEvidence([], terms)).toMatchObject({ best: 0, top: 0, rarest: false, pages: 0 });
  });
});

describe("the chance that an answer is right", () => {
  const covered: AnswerEvidence = {
    best: 1,
    top: 1,
    keyWords: 4,
    page: 1,
    near: 0.8,
    rarest: true,
    pages: 2,
  };

  it("is 0 when no passage holds enough of the question to quote", () => {
    expect(answerConfidence({ ...covered, best: QUOTABLE_SHARE - 0.01, top: QUOTABLE_SHARE - 0.01 })).toBe(0);
  });

  it("is a chance, well above the default minimum when the best passage holds the whole question closely", () => {
    const chance = answerConfidence(covered);
    expect(chance).toBeGreaterThan(3 * QUALITY_CHECK_DEFAULTS.min_retrieval_confidence);
    expect(chance).toBeLessThan(1);
  });

  it("falls as the best passage and its page hold less of the question", () => {
    expect(answerConfidence({ ...covered, best: 0.5, page: 0.5 })).toBeLessThan(answerConfidence(covered));
  });

  it("falls when the best passage holds the question's words only scattered and its page little else", () => {
    expect(answerConfidence({ ...covered, near: 0.2, page: 0.5, best: 0.5, rarest: false })).toBeLessThan(
      answerConfidence(covered),
    );
  });
});
