import { describe, expect, it } from "vitest";
import { EVIDENCE_THRESHOLDS } from "@contract";
import { answeredAt, ratedAnswerSample, testResultSample, thresholdPoints, type ReplaySample } from "./replay";

const at = (samples: ReplaySample[], threshold: number) =>
  thresholdPoints(samples).find((point) => point.threshold === threshold)!;

describe("the quality gate replayed", () => {
  it("answers from a best score that reaches the value, never from a score of 0", () => {
    expect(answeredAt(0.3, 0.3)).toBe(true);
    expect(answeredAt(0.299, 0.3)).toBe(false);
    expect(answeredAt(0, 0)).toBe(false);
    expect(thresholdPoints([]).map((point) => point.threshold)).toEqual([...EVIDENCE_THRESHOLDS]);
  });
});

describe("a test result", () => {
  it("that expects the fallback passes where the value refuses it", () => {
    const sample = testResultSample({ confidence: 0.45, expectOutcome: "fallback", ranAs: "answered", passed: false })!;
    expect(at([sample], 0.4)).toEqual({ threshold: 0.4, answered: 1, fallback: 0, passed: 0 });
    expect(at([sample], 0.5)).toEqual({ threshold: 0.5, answered: 0, fallback: 1, passed: 1 });
  });

  it("that expects an answer passes where answered, if its checks passed when it ran", () => {
    const right = testResultSample({ confidence: 0.6, expectOutcome: null, ranAs: "answered", passed: true })!;
    const wrong = testResultSample({ confidence: 0.6, expectOutcome: "answered", ranAs: "answered", passed: false })!;
    const disclaimed = testResultSample({
      confidence: 0.6,
      expectOutcome: "disclaimed",
      ranAs: "disclaimed",
      passed: true,
    })!;
    expect(at([right, wrong, disclaimed], 0.6)).toMatchObject({ answered: 3, passed: 2 });
    expect(at([right, wrong, disclaimed], 0.7)).toMatchObject({ answered: 0, fallback: 3, passed: 0 });
  });

  it("that ran as a fallback has no checked answer: it passes at no value, even when the fallback met its text", () => {
    const sample = testResultSample({ confidence: 0.25, expectOutcome: null, ranAs: "fallback", passed: true })!;
    expect(thresholdPoints([sample]).map((point) => point.passed)).toEqual(EVIDENCE_THRESHOLDS.map(() => 0));
    expect(at([sample], 0.2)).toMatchObject({ answered: 1 });
  });

  it("that expects the canned response passes at no value; a canned one is left out", () => {
    const expectsCanned = testResultSample({
      confidence: 0.8,
      expectOutcome: "canned",
      ranAs: "answered",
      passed: false,
    })!;
    expect(thresholdPoints([expectsCanned]).every((point) => point.passed === 0)).toBe(true);
    expect(testResultSample({ confidence: 0, expectOutcome: "canned", ranAs: "canned", passed: true })).toBeNull();
  });
});

describe("a rated answer", () => {
  it("passes with a thumbs up where answered, with a thumbs down where given the fallback; a canned one is left out", () => {
    const up = ratedAnswerSample({ confidence: 0.35, rating: "up", outcome: "answered" })!;
    const down = ratedAnswerSample({ confidence: 0.35, rating: "down", outcome: "answered" })!;
    expect(at([up, down], 0.3)).toEqual({ threshold: 0.3, answered: 2, fallback: 0, passed: 1 });
    expect(at([up], 0.3).passed).toBe(1);
    expect(at([up], 0.4).passed).toBe(0);
    expect(at([down], 0.3).passed).toBe(0);
    expect(at([down], 0.4).passed).toBe(1);
    expect(ratedAnswerSample({ confidence: 0, rating: "down", outcome: "canned" })).toBeNull();
  });
});
