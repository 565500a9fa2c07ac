import { describe, expect, it } from "vitest";
import { EVIDENCE_THRESHOLDS, type ThresholdEvidence } from "@contract";
import { evenlySpaced, isTodayValue, replayedWhat, thresholdLabel, todayBetween } from "./threshold-evidence";

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
    expect(todayBetween(evidence(0.05))).toBe("Today's value, 0.05, lies between 0.04 and 0.07.");
    expect(todayBetween(evidence(0.01))).toBe("Today's value, 0.01, is below 0.02.");
    expect(todayBetween(evidence(0.95))).toBe("Today's value, 0.95, is above 0.9.");
  });
});

it("writes each threshold with the decimals it has", () => {
  expect(EVIDENCE_THRESHOLDS.map(thresholdLabel)).toEqual(EVIDENCE_THRESHOLDS.map(String));
  expect(thresholdLabel(0.1 + 0.2)).toBe("0.3");
  expect(thresholdLabel(0.15)).toBe("0.15");
});

it("says what was replayed, in the singular where it is one", () => {
  expect(replayedWhat(evidence(0.4, 1, 0))).toBe("1 test result and 0 rated answers");
  expect(replayedWhat(evidence(0.4, 1200, 1))).toBe("1,200 test results and 1 rated answer");
});

it("places the thresholds evenly on the chart's axis, a value between two of them in proportion", () => {
  const x = evenlySpaced([0.02, 0.04, 0.1, 0.9], 0, 300);
  expect([0.02, 0.04, 0.1, 0.9].map(x)).toEqual([0, 100, 200, 300]);
  expect(x(0.07)).toBeCloseTo(150);
  expect(x(0.5)).toBeCloseTo(250);
  expect(x(0.01)).toBe(0);
  expect(x(0.95)).toBe(300);
});
