// Plain values only: this module reaches the browser, where the contract's schemas must not.
import type { AnswerTrace, ConversationMessage, TraceLeftOut, TracePassage } from "@contract";
import type { FallbackReason, SmallTalkKind } from "@contract/values/conversations";
import { quotedList } from "./quoted-words";

export { noPassageHeldText } from "./quoted-words";

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

/** The No-Go topic whose canned response the answer is: retrieval did not run for it. */
export const noGoTopicOf = (trace: AnswerTrace) =>
  trace.controls.find((control) => control.type === "no_go_topic")?.name ?? null;

/**
 * Why a fallback was one. Traces recorded before the reason was kept hold what it was worked out
 * from, in the responder's order (api/chat/responder.ts): the passages found, the chance and the
 * threshold it was compared with (before the chance was recorded, the best passage's score was),
 * and whether a model was asked.
 */
export function fallbackReasonOf(trace: AnswerTrace): FallbackReason {
  if (trace.fallback_reason) return trace.fallback_reason;
  if (!trace.passages.length) return "no_passage";
  const chance = trace.confidence ?? trace.top_score;
  if (chance <= 0) return "none_quotable";
  if (chance < trace.threshold) return "below_threshold";
  return trace.model ? "model_declined" : "no_sentence";
}

export const FALLBACK_REASON_TEXTS: Record<FallbackReason, string> = {
  no_passage: "retrieval found no passage for this question.",
  none_quotable: "no passage held enough of the question to quote.",
  below_threshold: "the estimated chance that an answer is right was below the Minimum Retrieval Confidence.",
  no_sentence: "no sentence of the quotable passages answers the question.",
  model_declined: "the language model found no answer in the passages it was given.",
  file_not_tagged: "the passages good enough to quote are in files not tagged for the environment it was asked in.",
};

/**
 * What to do about files whose passages were left out as not tagged for the environment, when they
 * are why nothing was quoted: a file answers only where it is tagged, so the knowledge store lacks
 * nothing and adding a page would not help.
 */
export const tagFilesText = (names: string[]) =>
  names.length === 1
    ? `Tag the file in Files for this environment to answer from it: ${quotedList(names)}.`
    : `Tag the files in Files for this environment to answer from them: ${quotedList(names)}.`;

/** Files left out as not tagged for the environment, when something else is why nothing was quoted. */
const filesLeftOutText = (names: string[]) =>
  `Files not tagged for this environment were left out too: ${quotedList(names)}.`;

/** An AI Finetuning rule that removed pages holding the question's key words before ranking, as "Controls that fired" names it. */
export const leftOutText = (rule: Pick<TraceLeftOut, "pattern" | "penalty">) =>
  `Left out by AI Finetuning: ${rule.pattern} (penalty ${rule.penalty})`;

/** The rules beyond those a trace names (it keeps a few) that left pages out too. */
export const moreLeftOutText = (rules: number) =>
  `${rules === 1 ? "One more rule" : `${rules} more rules`} left out pages too.`;

const LEFT_OUT_NOTE = "AI Finetuning left out pages holding the question's key words: see Controls that fired.";

/** What a small-talk message was read as, after "the message was read as". */
export const SMALL_TALK_TEXTS: Record<SmallTalkKind, string> = {
  greeting: "a greeting",
  thanks: "thanks",
  farewell: "a goodbye",
  acknowledgement: "an acknowledgement (“ok”, “great”)",
  introduction: "the visitor's name or contact details alone",
};

/** The sentence after the outcome: how the answer came to be what the visitor got. */
export function howTheAnswerCame({ outcome, trace }: TracedAnswer) {
  if (trace.parts)
    return `The message asked ${trace.parts.length} questions: each was searched and answered on its own, in order.`;
  if (trace.small_talk)
    return `Nothing was searched: the message was read as ${SMALL_TALK_TEXTS[trace.small_talk]}, which asks nothing of the knowledge store.`;
  const noGo = noGoTopicOf(trace);
  if (noGo !== null) return `Retrieval did not run: the No-Go topic “${noGo}” matched.`;
  if (outcome === "fallback") {
    const reason = fallbackReasonOf(trace);
    const notTagged = trace.files_not_tagged ?? [];
    const why = [
      `The answer quotes nothing: ${FALLBACK_REASON_TEXTS[reason]}`,
      notTagged.length ? (reason === "file_not_tagged" ? tagFilesText : filesLeftOutText)(notTagged) : "",
      // A page an operator excluded may be the one that held the answer.
      trace.left_out?.rules.length ? LEFT_OUT_NOTE : "",
    ];
    return why.filter(Boolean).join(" ");
  }
  return trace.programs?.length ? `${howDrawn(trace)} ${programsText(trace.programs)}` : howDrawn(trace);
}

/**
 * Where the programs an answer named came from: the program profile data model, matched to the
 * question, not a passage; so an answer may name them when no passage was good enough to quote.
 */
export const programsText = (programs: string[]) =>
  `It names ${programs.length === 1 ? "a program" : "programs"} that may fit (${programs.join(", ")}) from the program profile data model, not from a passage: the quality check decides only whether a passage is quoted.`;

/**
 * What the estimated chance that the answer is right, set against the threshold, meant for it. Not
 * for a canned answer: retrieval did not run, and no chance was estimated.
 */
export function chanceVerdict(trace: AnswerTrace) {
  const chance = trace.confidence ?? 0;
  if (chance > 0 && chance >= trace.threshold) return "it reaches it.";
  // Below it, nothing is quoted: the fallback, or an answer naming programs that may fit.
  if (chance > 0) return "below it, so no passage was quoted.";
  if (trace.passages.length) return "no passage held enough of the question to quote.";
  return trace.files_not_tagged?.length
    ? "the passages retrieval found were all in files not tagged for this environment, so none was left to estimate it from."
    : "retrieval found no passage to estimate it from.";
}

type TracePart = NonNullable<AnswerTrace["parts"]>[number];

/** How one question of several came out, after its outcome: why nothing answered it; null when it was answered (its chance says the rest). */
export function partVerdict(part: TracePart) {
  if (part.outcome === "fallback") {
    const why = `no answer: ${FALLBACK_REASON_TEXTS[part.fallback_reason ?? "no_passage"]}`;
    return part.fallback_reason === "file_not_tagged" && part.files_not_tagged?.length
      ? `${why} ${tagFilesText(part.files_not_tagged)}`
      : why;
  }
  // A No-Go topic's canned response: nothing was searched, so no chance was estimated.
  if (part.outcome === "canned") return "a No-Go topic's canned response; nothing was searched";
  return null;
}

/**
 * What one question's chance, set against the threshold, meant for it, as `chanceVerdict` says it
 * of a single question; "" when none was estimated from a passage (why nothing was quoted is its
 * fallback's reason). Null when the question has no chance to show: a canned response, or a trace
 * recorded before each question's was kept.
 */
export function partChanceVerdict(part: TracePart, threshold: number) {
  if (part.outcome === "canned" || part.confidence === undefined) return null;
  if (part.confidence > 0 && part.confidence >= threshold) return "it reaches it.";
  return part.confidence > 0 ? "below it, so no passage was quoted." : "";
}

/** What "Passages retrieved" says when the trace holds none. */
export function noPassagesText(trace: AnswerTrace) {
  if (noGoTopicOf(trace) !== null) return "Retrieval did not run: the No-Go topic matched.";
  // Retrieval found passages, all of them in files this environment may not answer from.
  return trace.files_not_tagged?.length
    ? `Retrieval found passages only in files not tagged for this environment, and left them out: ${quotedList(trace.files_not_tagged)}.`
    : "Retrieval found no passage for this question.";
}

/** A key word's share of the question's weight, as the trace's table shows it ("31%"). */
export const shareText = (weight: number) => `${Math.round(weight * 100)}%`;

/**
 * What the store lacks, said of the question's own key words no passage held when it was asked (a
 * word of the question before, searched with a follow-up, is not what was asked); null when it
 * held them all. A word the store lacks weighs the most, so no passage holds much of the question:
 * when it names what the visitor asked about ("parking"), the remedy is a page or file about it;
 * an everyday word ("send") is only the visitor's wording.
 */
export function lackedWordsText(trace: AnswerTrace) {
  const lacked = [
    ...new Set((trace.key_words ?? []).filter((key) => !key.context && !key.passages).map((key) => key.word)),
  ];
  if (!lacked.length) return null;
  const [them, names] = lacked.length === 1 ? ["it", "it names"] : ["them", "they name"];
  return `No passage of the knowledge store held ${quotedList(lacked)} when this was asked, so no passage could hold all of the question. If ${names} what the visitor asked about, add a page or file that covers ${them}.`;
}
