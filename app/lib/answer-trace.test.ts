import { describe, expect, it } from "vitest";
import type { AnswerTrace, TracePassage } from "@contract";
import { howTheAnswerCame, passageUse } from "./answer-trace";

const passage = (rank: number, fields: Partial<TracePassage> = {}): TracePassage => ({
  url: `https://www.northfield.edu/page-${rank}`,
  file_name: null,
  title: `Page ${rank}`,
  heading_path: [],
  indexed_at: null,
  score: 1 / rank,
  rank,
  penalties: [],
  passed: true,
  used: false,
  listed: false,
  text: "…",
  ...fields,
});
const trace = (passages: TracePassage[], fields: Partial<AnswerTrace> = {}): AnswerTrace => ({
  threshold: 0.04,
  confidence: 0.5,
  top_score: 1,
  passages,
  controls: [],
  model: false,
  ...fields,
});
/** A trace as recorded before `listed` was: `used` on every passage of the answer's sources. */
const before = ({ listed: _listed, ...fields }: TracePassage): TracePassage => fields;

describe("what an answer did with each passage", () => {
  it("says Used only of the passage its text was drawn from, and Listed of the others it showed as sources", () => {
    expect(passageUse(passage(1, { used: true, listed: true }))).toBe("Used");
    expect(passageUse(passage(2, { listed: true }))).toBe("Listed as a source only");
    expect(passageUse(passage(3))).toBe("Not used");
  });

  it("words a trace recorded before as the sources it marked, never as Used", () => {
    expect(passageUse(before(passage(1, { used: true })))).toBe("Listed as a source");
    expect(passageUse(before(passage(2)))).toBe("Not used");
  });

  it("says the answer quotes the passage marked Used, and what Listed means when a passage is only listed", () => {
    const quoted = trace([passage(1, { used: true, listed: true }), passage(2, { listed: true }), passage(3)]);
    expect(howTheAnswerCame({ outcome: "answered", trace: quoted })).toBe(
      "The answer quotes the passage marked “Used”. “Listed as a source only”: the visitor was shown its page as a source, but the answer's text is not drawn from it.",
    );
    expect(howTheAnswerCame({ outcome: "answered", trace: trace([passage(1, { used: true, listed: true })]) })).toBe(
      "The answer quotes the passage marked “Used”.",
    );
  });

  it("says a model wrote from the passages it cites, or that it cited none", () => {
    expect(
      howTheAnswerCame({
        outcome: "answered",
        trace: trace([passage(1, { used: true, listed: true })], { model: true }),
      }),
    ).toBe("A language model wrote the answer from the passages marked “Used”, which it cites.");
    expect(
      howTheAnswerCame({ outcome: "disclaimed", trace: trace([passage(1, { listed: true })], { model: true }) }),
    ).toMatch(/^A language model wrote the answer and cited no passage\. “Listed as a source only”/);
  });

  it("says of a trace recorded before that the answer quotes one of its sources", () => {
    expect(howTheAnswerCame({ outcome: "answered", trace: trace([before(passage(1, { used: true }))]) })).toBe(
      "The answer quotes one of the passages listed as its sources (this trace was recorded before traces told which).",
    );
  });
});
