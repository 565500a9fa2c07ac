import { describe, expect, it } from "vitest";
import { tracePassage } from "../../tests/support/trace-passage";
import type { AnswerTrace, TraceKeyWord, TracePassage } from "@contract";
import {
  chanceVerdict,
  fallbackReasonOf,
  howTheAnswerCame,
  lackedWordsText,
  leftOutText,
  moreLeftOutText,
  noPassagesText,
  partChanceVerdict,
  partVerdict,
  passageUse,
  shareText,
} from "./answer-trace";

const passage = tracePassage;
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

describe("a canned answer's trace", () => {
  const canned = trace([], { confidence: 0, top_score: 0, controls: [{ type: "no_go_topic", name: "legal advice" }] });

  it("says retrieval did not run because the No-Go topic matched, and quotes no passage", () => {
    expect(howTheAnswerCame({ outcome: "canned", trace: canned })).toBe(
      "Retrieval did not run: the No-Go topic “legal advice” matched.",
    );
    expect(noPassagesText(canned)).toBe("Retrieval did not run: the No-Go topic matched.");
    expect(noPassagesText(trace([], { confidence: 0 }))).toBe("Retrieval found no passage for this question.");
  });
});

describe("an answer that names programs", () => {
  it("says they came from the program model, not a passage, whatever the quality check said", () => {
    expect(
      howTheAnswerCame({ outcome: "answered", trace: trace([], { confidence: 0, programs: ["Nursing (BSN)"] }) }),
    ).toBe(
      "The answer quotes no passage. It names a program that may fit (Nursing (BSN)) from the program profile data model, not from a passage: the quality check decides only whether a passage is quoted.",
    );
  });
});

describe("each question of a message that asked several", () => {
  it("says a No-Go topic's canned response was searched for nothing, not a chance of 0", () => {
    expect(partVerdict({ question: "Is there parking?", outcome: "canned", confidence: 0 })).toBe(
      "a No-Go topic's canned response; nothing was searched",
    );
    expect(partChanceVerdict({ question: "Is there parking?", outcome: "canned", confidence: 0 }, 0.04)).toBe(null);
  });

  it("sets each question's chance against the threshold, a fallback's as an answer's", () => {
    const part = (outcome: "answered" | "fallback", confidence?: number) => ({
      question: "Tours?",
      outcome,
      confidence,
    });
    expect(partVerdict(part("answered", 0.62))).toBe(null);
    expect(partChanceVerdict(part("answered", 0.62), 0.04)).toBe("it reaches it.");
    expect(partChanceVerdict(part("fallback", 0.02), 0.04)).toBe("below it, so no passage was quoted.");
    expect(partChanceVerdict(part("fallback", 0), 0.04)).toBe("");
    // Recorded before each question's chance was kept: none to show.
    expect(partChanceVerdict(part("fallback"), 0.04)).toBe(null);
  });
});

describe("a fallback's trace", () => {
  const fallback = (fields: Partial<AnswerTrace>, passages = [passage(1, { passed: false })]) =>
    howTheAnswerCame({ outcome: "fallback", trace: trace(passages, fields) });

  it("says the fallback quotes nothing, and why, as recorded", () => {
    expect(fallback({ fallback_reason: "no_passage", confidence: 0 }, [])).toBe(
      "The answer quotes nothing: retrieval found no passage for this question.",
    );
    expect(fallback({ fallback_reason: "none_quotable", confidence: 0 })).toBe(
      "The answer quotes nothing: no passage held enough of the question to quote.",
    );
    expect(fallback({ fallback_reason: "below_threshold", confidence: 0.02 })).toBe(
      "The answer quotes nothing: the estimated chance that an answer is right was below the Minimum Retrieval Confidence.",
    );
    expect(fallback({ fallback_reason: "no_sentence" })).toBe(
      "The answer quotes nothing: no sentence of the quotable passages answers the question.",
    );
    expect(fallback({ fallback_reason: "model_declined", model: true })).toBe(
      "The answer quotes nothing: the language model found no answer in the passages it was given.",
    );
  });

  it("reads the reason of a trace recorded before it was kept from what the trace holds", () => {
    expect(fallbackReasonOf(trace([], { confidence: 0 }))).toBe("no_passage");
    expect(fallbackReasonOf(trace([passage(1)], { confidence: 0 }))).toBe("none_quotable");
    expect(fallbackReasonOf(trace([passage(1)], { confidence: 0.02 }))).toBe("below_threshold");
    expect(fallbackReasonOf(trace([passage(1)], { confidence: 0.5 }))).toBe("no_sentence");
    expect(fallbackReasonOf(trace([passage(1)], { confidence: 0.5, model: true }))).toBe("model_declined");
    // Before the chance was recorded, the best passage's score met the threshold.
    expect(fallbackReasonOf(trace([passage(1)], { confidence: undefined, top_score: 0.2, threshold: 0.3 }))).toBe(
      "below_threshold",
    );
  });

  it("sets the chance against the threshold without saying the fallback of an answer that named programs", () => {
    expect(chanceVerdict(trace([passage(1)], { confidence: 0.5 }))).toBe("it reaches it.");
    expect(chanceVerdict(trace([passage(1)], { confidence: 0.02 }))).toBe("below it, so no passage was quoted.");
    expect(chanceVerdict(trace([passage(1)], { confidence: 0 }))).toBe(
      "no passage held enough of the question to quote.",
    );
    expect(chanceVerdict(trace([], { confidence: 0 }))).toBe("retrieval found no passage to estimate it from.");
  });
});

describe("files left out as not tagged for the environment", () => {
  const untagged = { confidence: 0, files_not_tagged: ["Shuttle timetable.pdf"] };

  it("are said to be why a fallback quoted nothing, with the file to tag in Files, not that nothing was found", () => {
    const trace_ = trace([], { ...untagged, fallback_reason: "file_not_tagged" });
    expect(howTheAnswerCame({ outcome: "fallback", trace: trace_ })).toBe(
      "The answer quotes nothing: the passages good enough to quote are in files not tagged for the environment it was asked in. Tag the file in Files for this environment to answer from it: “Shuttle timetable.pdf”.",
    );
    expect(noPassagesText(trace_)).toBe(
      "Retrieval found passages only in files not tagged for this environment, and left them out: “Shuttle timetable.pdf”.",
    );
    expect(chanceVerdict(trace_)).toBe(
      "the passages retrieval found were all in files not tagged for this environment, so none was left to estimate it from.",
    );
    expect(
      partVerdict({
        question: "When does the shuttle leave?",
        outcome: "fallback",
        fallback_reason: "file_not_tagged",
        files_not_tagged: ["Shuttle timetable.pdf", "Shuttle map.pdf"],
      }),
    ).toBe(
      "no answer: the passages good enough to quote are in files not tagged for the environment it was asked in. Tag the files in Files for this environment to answer from them: “Shuttle timetable.pdf” and “Shuttle map.pdf”.",
    );
  });

  it("are named without advice to tag them when something else is why nothing was quoted", () => {
    expect(
      howTheAnswerCame({
        outcome: "fallback",
        trace: trace([passage(1, { passed: false })], { ...untagged, fallback_reason: "none_quotable" }),
      }),
    ).toBe(
      "The answer quotes nothing: no passage held enough of the question to quote. Files not tagged for this environment were left out too: “Shuttle timetable.pdf”.",
    );
  });
});

describe("pages AI Finetuning left out", () => {
  const programs = "https://www.northfield.edu/programs/";
  const leftOut = {
    rules: [{ type: "url_pattern", pattern: programs, penalty: 1, pages: [programs], more_pages: false }],
    more_rules: 0,
  };

  it("are named by the rule that left them out, and the rules past those the trace keeps are counted", () => {
    expect(leftOutText(leftOut.rules[0])).toBe(`Left out by AI Finetuning: ${programs} (penalty 1)`);
    expect(moreLeftOutText(1)).toBe("One more rule left out pages too.");
    expect(moreLeftOutText(3)).toBe("3 more rules left out pages too.");
  });

  it("are pointed to from a fallback's reason, as the page left out may be the one that held the answer", () => {
    expect(
      howTheAnswerCame({
        outcome: "fallback",
        trace: trace([], { confidence: 0, fallback_reason: "no_passage", left_out: leftOut }),
      }),
    ).toBe(
      "The answer quotes nothing: retrieval found no passage for this question. AI Finetuning left out pages holding the question's key words: see Controls that fired.",
    );
  });
});

describe("the question's key words the store lacked", () => {
  const key = (word: string, passages: number, fields: Partial<TraceKeyWord> = {}): TraceKeyWord => ({
    word,
    weight: 0.2,
    passages,
    ...fields,
  });

  it("are named, with what the operator can do when they name what was asked", () => {
    expect(lackedWordsText(trace([], { key_words: [key("parking", 0), key("students", 11)] }))).toBe(
      "No passage of the knowledge store held “parking” when this was asked, so no passage could hold all of the question. If it names what the visitor asked about, add a page or file that covers it.",
    );
    expect(
      lackedWordsText(trace([], { key_words: [key("bring", 0), key("car", 0), key("parking", 0), key("year", 8)] })),
    ).toBe(
      "No passage of the knowledge store held “bring”, “car” and “parking” when this was asked, so no passage could hold all of the question. If they name what the visitor asked about, add a page or file that covers them.",
    );
  });

  it("leave out the question before's words, and say nothing when the store held every word or none were kept", () => {
    expect(lackedWordsText(trace([], { key_words: [key("nursing", 0, { context: true }), key("cost", 4)] }))).toBe(
      null,
    );
    expect(lackedWordsText(trace([], { key_words: [key("fee", 3)] }))).toBe(null);
    expect(lackedWordsText(trace([]))).toBe(null);
  });

  it("name a word once though two of the questions asked it", () => {
    const twice = [key("parking", 0, { part: 1 }), key("parking", 0, { part: 2 })];
    expect(lackedWordsText(trace([], { key_words: twice }))).toMatch(
      /^No passage of the knowledge store held “parking” when/,
    );
  });

  it("weigh as a whole percentage of the question", () => {
    expect([shareText(0.314), shareText(0.005), shareText(1)]).toEqual(["31%", "1%", "100%"]);
  });
});
