import { describe, expect, it } from "vitest";
import { EVIDENCE_THRESHOLDS, type ThresholdEvidence } from "@contract";
import { isTodayValue, replayedWhat, todayBetween } from "./threshold-evidence";

const evidence = (current: number, testResults = 2, ratedAnswers = 1): ThresholdEvidence => ({
  current,
  test_results: testResults,
  rated_answers: ratedAnswers,
  points: EVIDENCE_THRESHOLDS.map((threshold) => ({ threshold, answered: 0, fallback: 0, passed: 0 })),
});

describe("today's value among the thresholds", () => {
  it("is a row of its own when it is one of them, even as a sum's float", () => {
    expect(isTodayValue(0.3, 0.1 + 0.2)).toBe(true);
    expect(isTodayValue(0.3, 0.35)).toBe(false);
    expect(todayBetween(evidence(0.4))).toBeNull();
  });

  it("is placed between two rows, or below or above them all", () => {
    expect(todayBetween(evidence(0.25))).toBe("Today's value, 0.25, lies between 0.2 and 0.3.");
    expect(todayBetween(evidence(0.05))).toBe("Today's value, 0.05, is below 0.1.");
    expect(todayBetween(evidence(0.95))).toBe("Today's value, 0.95, is above 0.9.");
  });
});

it("says what was replayed, in the singular where it is one", () => {
  expect(replayedWhat(evidence(0.4, 1, 0))).toBe("1 test result and 0 rated answers");
  expect(replayedWhat(evidence(0.4, 1200, 1))).toBe("1,200 test results and 1 rated answer");
});
