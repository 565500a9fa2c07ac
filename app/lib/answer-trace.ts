// Plain values only: this module reaches the browser, where the contract's schemas must not.
import type { AnswerTrace, ConversationMessage, TracePassage } from "@contract";

/*
 * How "Why this answer" words an answer's trace (docs/decisions/028 and 030): what the answer did
 * with each passage, and how it came out. Read from what the trace recorded, never worked out again.
 */

type TracedAnswer = Pick<ConversationMessage, "outcome"> & { trace: AnswerTrace };

/**
 * Traces recorded before `listed` was kept marked `used` on every passage of the answer's sources,
 * the one it quotes among them: which one it quotes they cannot tell, so those are worded as the
 * sources they are ("Listed as a source"), never as "Used".
 */
const recordedBeforeListed = (trace: AnswerTrace) => trace.passages.some((passage) => passage.listed === undefined);

export const PASSAGE_USES = {
  used: "Used",
  listedOnly: "Listed as a source only",
  listedBefore: "Listed as a source",
  notUsed: "Not used",
} as const;

/** What the answer did with a passage, as the trace's "Used" column says it. */
export function passageUse(passage: TracePassage): (typeof PASSAGE_USES)[keyof typeof PASSAGE_USES] {
  if (passage.listed === undefined) return passage.used ? PASSAGE_USES.listedBefore : PASSAGE_USES.notUsed;
  if (passage.used) return PASSAGE_USES.used;
  return passage.listed ? PASSAGE_USES.listedOnly : PASSAGE_USES.notUsed;
}

/** How an answer that was given from the passages drew on them, after its outcome. */
function howDrawn(trace: AnswerTrace) {
  if (recordedBeforeListed(trace))
    return trace.model
      ? "A language model wrote the answer from the passages listed as its sources."
      : "The answer quotes one of the passages listed as its sources (this trace was recorded before traces told which).";
  const drawn = trace.passages.some((passage) => passage.used);
  const how = trace.model
    ? drawn
      ? `A language model wrote the answer from the passages marked “${PASSAGE_USES.used}”, which it cites.`
      : "A language model wrote the answer and cited no passage."
    : drawn
      ? `The answer quotes the passage marked “${PASSAGE_USES.used}”.`
      : "The answer quotes no passage.";
  const listedOnly = trace.passages.some((passage) => passage.listed && !passage.used);
  return listedOnly
    ? `${how} “${PASSAGE_USES.listedOnly}”: the visitor was shown its page as a source, but the answer's text is not drawn from it.`
    : how;
}

/** The sentence after the outcome: how the answer came to be what the visitor got. */
export function howTheAnswerCame({ trace }: TracedAnswer) {
  return howDrawn(trace);
}
