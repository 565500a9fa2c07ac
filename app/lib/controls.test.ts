import { describe, expect, it } from "vitest";
import { QUALITY_CHECK_DEFAULTS, TOPIC_ROWS, type Control } from "@contract";
import {
  differsFrom,
  normalizeNewlines,
  probingFieldOf,
  qualityBaseline,
  savedMessage,
  shouldSendText,
  topicChanges,
  topicFieldOf,
  topicRowsOf,
  topicsBaseline,
} from "./controls";
import { qualityFieldOf, QualityCheckForm } from "./controls.schema";

const topic = (
  id: number,
  text: string,
  disclaimer: string,
  type: Control["internal_name"] = "sensitive_topics",
): Control => ({
  id,
  app_id: 1,
  internal_name: type,
  display_name: "",
  prompt_input_raw: text,
  trigger_point: "",
  metadata: { disclaimer },
});

describe("topic lists", () => {
  it("show the saved topics first, then blank rows up to 8", () => {
    const rows = topicRowsOf(
      [topic(4, "visas", "See the office."), topic(9, "fees", "x", "no_go_topics")],
      "sensitive_topics",
    );
    expect(rows).toHaveLength(TOPIC_ROWS);
    expect(rows[0]).toEqual({ id: 4, topic: "visas", disclaimer: "See the office." });
    expect(rows.slice(1).every((row) => row.id === null && !row.topic && !row.disclaimer)).toBe(true);
  });

  it("send rows with text and saved rows (an emptied one is removed by the API), not untouched blanks", () => {
    const { controls, formIndexOf } = topicChanges(
      [
        { id: 4, topic: "", disclaimer: "" },
        { topic: "", disclaimer: "" },
        { topic: "  loans ", disclaimer: "Line one\r\nline two " },
        { id: 7, topic: "grants", disclaimer: "Kept" },
      ],
      "sensitive_topics",
      "admissions",
    );
    expect(formIndexOf).toEqual([0, 2, 3]);
    expect(controls).toEqual([
      {
        id: 4,
        internal_name: "sensitive_topics",
        prompt_input_raw: "",
        metadata: { disclaimer: "" },
        trigger_point: "admissions",
      },
      {
        id: null,
        internal_name: "sensitive_topics",
        prompt_input_raw: "loans",
        metadata: { disclaimer: "Line one\nline two" },
        trigger_point: "admissions",
      },
      {
        id: 7,
        internal_name: "sensitive_topics",
        prompt_input_raw: "grants",
        metadata: { disclaimer: "Kept" },
        trigger_point: "admissions",
      },
    ]);
  });

  it("place the API's messages on the row they are about", () => {
    const formIndexOf = [0, 2, 5];
    expect(topicFieldOf("controls.1.metadata.disclaimer", formIndexOf)).toBe("rows[2].disclaimer");
    expect(topicFieldOf("controls.2.prompt_input_raw", formIndexOf)).toBe("rows[5].topic");
    expect(topicFieldOf("controls.0.id", formIndexOf)).toBe("rows[0].topic");
    expect(topicFieldOf("controls", formIndexOf)).toBeNull();
    expect(topicFieldOf("controls.7.prompt_input_raw", formIndexOf)).toBeNull();
  });
});

describe("texts (personality, probing)", () => {
  it("are sent when non-empty or changed", () => {
    expect(shouldSendText("", "")).toBe(false);
    expect(shouldSendText("  ", "  ")).toBe(false);
    expect(shouldSendText("", "Saved before")).toBe(true);
    expect(shouldSendText("Same", "Same")).toBe(true);
    expect(shouldSendText("a\nb", "a\r\nb")).toBe(true);
  });

  it("normalise the line breaks browsers post", () => {
    expect(normalizeNewlines("a\r\nb\rc\n")).toBe("a\nb\nc\n");
  });

  it("map probing errors to the entry sent at that index", () => {
    expect(probingFieldOf("ai_probings.0.prompt_input_raw", ["topic_to_prob_mapping"])).toBe("topic_to_prob_mapping");
    expect(probingFieldOf("ai_probings.1.prompt_input_raw", ["topics"])).toBeNull();
  });
});

describe("quality check", () => {
  it("uses the contract's messages and keeps no defaults for blank fields", () => {
    const blank = QualityCheckForm.safeParse({ fallback_message: "Sorry" });
    expect(blank.success).toBe(false);
    expect(blank.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["min_retrieval_confidence", "Enter a number from 0 to 1"],
      ["max_sources", "Enter a whole number from 1 to 10"],
    ]);
    expect(
      QualityCheckForm.parse({ min_retrieval_confidence: 0.5, max_sources: 2, fallback_message: "Sorry" })
        .require_source,
    ).toBe(false);
  });

  it("maps settings errors to their fields", () => {
    expect(qualityFieldOf("controls.0.metadata.max_sources")).toBe("max_sources");
    expect(qualityFieldOf("controls.0.metadata.other")).toBeNull();
    expect(qualityFieldOf("controls.0.trigger_point")).toBeNull();
  });
});

describe("the dirty flag", () => {
  it("compares every field with what was loaded, line breaks aside", () => {
    const baseline = qualityBaseline(QUALITY_CHECK_DEFAULTS);
    expect(differsFrom(baseline, { ...baseline })).toBe(false);
    expect(differsFrom(baseline, { ...baseline, require_source: "" })).toBe(true);
    const rows = topicsBaseline(topicRowsOf([topic(1, "visas", "a\nb")], "sensitive_topics"));
    expect(differsFrom(rows, { ...rows, "rows[0].disclaimer": "a\r\nb" })).toBe(false);
    expect(differsFrom(rows, { ...rows, "rows[3].topic": "new" })).toBe(true);
  });

  it("names the trigger point in the saved message", () => {
    expect(savedMessage("Sensitive Topics", "Default")).toBe("Sensitive Topics saved for Default.");
    expect(savedMessage("AI Personality", "Admissions Assistant")).toBe(
      "AI Personality saved for Admissions Assistant.",
    );
  });
});
