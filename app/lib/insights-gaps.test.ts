import { describe, expect, it } from "vitest";
import { answeredSinceText, gapAdvice } from "./insights-gaps";

const links = {
  store: "/northfield/agent/admissions/knowledge-store/websites",
  files: "/northfield/agent/admissions/knowledge-store/files",
  qualityCheck: "/northfield/agent/admissions/controls/quality-check",
  finetuning: "/northfield/ai-finetuning/ai-finetuning",
};
const labels = (advice: ReturnType<typeof gapAdvice>) => advice.actions.map((action) => action.label);

describe("gapAdvice", () => {
  it("sends a question nothing held enough of to the knowledge store", () => {
    const advice = gapAdvice({ fallback_reason: "no_passage", left_out: false, lacked_words: [] }, links);
    expect(advice.why).toBe("Why: retrieval found no passage for this question.");
    expect(advice.actions).toEqual([{ to: links.store, label: "Add the missing page in the knowledge store" }]);
    expect(labels(gapAdvice({ fallback_reason: "none_quotable", left_out: false, lacked_words: [] }, links))).toEqual([
      "Add the missing page in the knowledge store",
    ]);
  });

  it("blames no missing page for a chance under the threshold, nor for pages AI Finetuning left out", () => {
    const advice = gapAdvice({ fallback_reason: "below_threshold", left_out: true, lacked_words: [] }, links);
    expect(advice.why).toBe(
      "Why: the estimated chance that an answer is right was below the Minimum Retrieval Confidence. AI Finetuning left out pages holding its key words.",
    );
    expect(labels(advice)).toEqual([
      "Review the Minimum Retrieval Confidence in Quality Check",
      "Review the rules in AI Finetuning",
    ]);
    expect(labels(gapAdvice({ fallback_reason: "below_threshold", left_out: false, lacked_words: [] }, links))).toEqual(
      ["Review the Minimum Retrieval Confidence in Quality Check"],
    );
  });

  it("sends a question whose pages AI Finetuning left out to its rules, not to add a page that is there", () => {
    const advice = gapAdvice({ fallback_reason: "no_passage", left_out: true, lacked_words: [] }, links);
    expect(advice.why).toBe(
      "Why: retrieval found no passage for this question. AI Finetuning left out pages holding its key words.",
    );
    expect(labels(advice)).toEqual(["Review the rules in AI Finetuning"]);
  });

  it("names the question's words no passage held, often what the missing page is about", () => {
    const advice = gapAdvice(
      { fallback_reason: "none_quotable", left_out: false, lacked_words: ["parking", "car"] },
      links,
    );
    expect(advice.why).toBe(
      "Why: no passage held enough of the question to quote. No passage held “parking” and “car”.",
    );
    expect(labels(advice)).toEqual(["Add the missing page in the knowledge store"]);
    expect(gapAdvice({ fallback_reason: "no_passage", left_out: false, lacked_words: ["parking"] }, links).why).toBe(
      "Why: retrieval found no passage for this question. No passage held “parking”.",
    );
  });

  it("sends a question whose passages are in a file not tagged for its environment to Files, not to add a page", () => {
    const gap = {
      fallback_reason: "file_not_tagged" as const,
      left_out: false,
      lacked_words: [],
      files_not_tagged: ["Shuttle timetable.pdf"],
    };
    const advice = gapAdvice(gap, links);
    expect(advice.why).toBe(
      "Why: the passages good enough to quote are in files not tagged for the environment it was asked in. Tag the file in Files for this environment to answer from it: “Shuttle timetable.pdf”.",
    );
    // Files opens searched for the one file, its row the only one shown; several files, the whole list.
    expect(advice.actions).toEqual([
      { to: `${links.files}?search=Shuttle+timetable.pdf`, label: "Tag the file in Files" },
    ]);
    expect(
      gapAdvice({ ...gap, files_not_tagged: ["Shuttle timetable.pdf", "Parking map.pdf"] }, links).actions,
    ).toEqual([{ to: links.files, label: "Tag the file in Files" }]);
    // Those who may not tag files are told why, without the link.
    expect(gapAdvice(gap, { ...links, store: null, files: null }).actions).toEqual([]);
  });

  it("keeps the store's link, without a reason, for asks traced before reasons were kept", () => {
    const advice = gapAdvice({ fallback_reason: null, left_out: false, lacked_words: [] }, links);
    expect(advice.why).toBeNull();
    expect(labels(advice)).toEqual(["Add the missing page in the knowledge store"]);
  });

  it("offers no link a client without agents cannot follow", () => {
    const none = { store: null, files: null, qualityCheck: null, finetuning: links.finetuning };
    expect(gapAdvice({ fallback_reason: "below_threshold", left_out: false, lacked_words: [] }, none).actions).toEqual(
      [],
    );
  });
});

describe("answeredSinceText", () => {
  it("says the question was answered since on a UTC day, and what the count above counts", () => {
    expect(answeredSinceText("2026-12-04")).toBe(
      "Answered since: asked again on 2026-12-04 (UTC) and answered. The count above is of the asks before.",
    );
  });
});
