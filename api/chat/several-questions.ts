import { TRACE_MAX_LEFT_OUT_RULES, type AnswerTrace } from "@contract";
import { filesNotTaggedOf } from "./trace";
import { sentencesOf } from "../knowledge/words/sentences";
import type { ChatAnswer } from "./chat-answer";
import { contentWords } from "./words";

/*
 * A visitor may ask several things in one message: "How many students does the nursing program
 * admit each year? Are there scholarships for out-of-state students? And when is the application
 * deadline?". Searched whole, its words pull three ways: the best passage holds a share of each
 * question at most, so the answer quoted one of them, or none (the fallback). Each question is
 * searched and answered on its own instead, and the answers are given in order, one paragraph each;
 * a question nothing answers is named as such, so the visitor knows which went unanswered.
 */

/** At most this many questions of one message are answered each on its own; more are searched whole. */
export const MOST_QUESTIONS_ANSWERED_APART = 3;

/** A sentence that ends in a question mark (Latin, full-width or Arabic), maybe inside a quote or bracket. */
export const ENDS_AS_A_QUESTION = /[?\uFF1F\u061F]["'\u201D\u2019)\]]*$/;

/** A sentence asks something of its own: it ends as a question and holds a content word ("How much is tuition?"). */
const asksOnItsOwn = (sentence: string) => ENDS_AS_A_QUESTION.test(sentence) && contentWords(sentence).length >= 1;

/**
 * The questions a message asks, when it asks two to MOST_QUESTIONS_ANSWERED_APART of them; else
 * null. "Can a packet be sent empty? If so, is it billable?" counts two: the second is searched
 * with the first beside it, as a follow-up is.
 */
export function questionsOf(message: string): string[] | null {
  const asking = sentencesOf(message).filter(asksOnItsOwn);
  return asking.length >= 2 && asking.length <= MOST_QUESTIONS_ANSWERED_APART ? asking : null;
}

/** What is said for a question of several that nothing answered. */
export const notFoundText = (question: string) =>
  `I couldn't find an answer to “${question}” in our published information.`;

const gotAnswer = (answer: ChatAnswer) => answer.outcome === "answered" || answer.outcome === "disclaimed";

/** Items in order, each once by its key. */
const once = <T>(items: T[], key: (item: T) => string) =>
  items.filter((item, index) => items.findIndex((other) => key(other) === key(item)) === index);

/**
 * The answers to a message's questions as one: their texts in order (a question nothing answered
 * said to be so), their sources, programs and disclaimers together. Answered when any question was
 * (disclaimed when any answer carries a disclaimer); otherwise canned when a No-Go topic answered.
 */
export function answerOfSeveral(questions: string[], answers: ChatAnswer[]): ChatAnswer {
  const outcome = answers.some(gotAnswer)
    ? answers.some((answer) => answer.outcome === "disclaimed")
      ? "disclaimed"
      : "answered"
    : answers.some((answer) => answer.outcome === "canned")
      ? "canned"
      : "fallback";
  const url = (link: { url: string }) => link.url;
  return {
    text: answers
      .map((answer, index) => (answer.outcome === "fallback" ? notFoundText(questions[index]) : answer.text))
      .join("\n\n"),
    outcome,
    sources: once(
      answers.flatMap((answer) => answer.sources),
      url,
    ),
    disclaimer:
      once(
        answers.flatMap((answer) => (answer.disclaimer ? [answer.disclaimer] : [])),
        (text) => text,
      ).join("\n\n") || null,
    programs: once(
      answers.flatMap((answer) => answer.programs),
      url,
    ),
    citedPages: once(
      answers.flatMap((answer) => answer.citedPages),
      url,
    ),
    // Kept for each question nothing answered: Insights lists it as a question of its own.
    closest: answers.flatMap((answer, index) => answer.closest.map((passage) => ({ ...passage, part: index + 1 }))),
    passages: answers.flatMap((answer) => answer.passages),
    context: answers.flatMap((answer) => answer.context),
    trace: traceOfSeveral(questions, answers),
  };
}

/**
 * One trace of several answers: each question with its outcome, chance and reason (and the files
 * its search left out as not tagged); the passages of all, ranked anew in order and marked with
 * their question (the trace's bound of passages holds for each); the controls that fired for any
 * and the files left out, each once.
 */
function traceOfSeveral(questions: string[], answers: ChatAnswer[]): AnswerTrace {
  const traces = answers.map((answer) => answer.trace);
  let rank = 0;
  const rules = traces.flatMap((trace) => trace.left_out?.rules ?? []);
  const keptRules = once(rules, (rule) => `${rule.type} ${rule.pattern}`);
  const moreRules = traces.reduce((more, trace) => more + (trace.left_out?.more_rules ?? 0), 0);
  const notTagged = once(
    traces.flatMap((trace) => trace.files_not_tagged ?? []),
    (name) => name,
  );
  return {
    threshold: traces[0].threshold,
    top_score: Math.max(...traces.map((trace) => trace.top_score)),
    passages: traces.flatMap((trace, index) =>
      trace.passages.map((passage) => ({ ...passage, rank: ++rank, part: index + 1 })),
    ),
    ...(traces.some((trace) => trace.key_words?.length)
      ? {
          key_words: traces.flatMap((trace, index) =>
            (trace.key_words ?? []).map((word) => ({ ...word, part: index + 1 })),
          ),
        }
      : {}),
    controls: once(
      traces.flatMap((trace) => trace.controls),
      (control) => `${control.type} ${control.name}`,
    ),
    model: traces.some((trace) => trace.model),
    ...(keptRules.length
      ? {
          left_out: {
            rules: keptRules.slice(0, TRACE_MAX_LEFT_OUT_RULES),
            more_rules: moreRules + Math.max(0, keptRules.length - TRACE_MAX_LEFT_OUT_RULES),
          },
        }
      : {}),
    ...(notTagged.length ? { files_not_tagged: filesNotTaggedOf(notTagged) } : {}),
    parts: answers.map((answer, index) => ({
      question: questions[index],
      outcome: answer.outcome,
      ...(answer.trace.confidence !== undefined ? { confidence: answer.trace.confidence } : {}),
      ...(answer.trace.fallback_reason ? { fallback_reason: answer.trace.fallback_reason } : {}),
      ...(answer.trace.files_not_tagged ? { files_not_tagged: answer.trace.files_not_tagged } : {}),
    })),
  };
}
