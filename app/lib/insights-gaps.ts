import type { Insights } from "@contract";
import { FALLBACK_REASON_TEXTS, noPassageHeldText, tagFilesText } from "./answer-trace";

type Gap = Insights["unanswered_questions"][number];

/** The id of the n-th unanswered question listed (from 0): an action on it comes back there. */
export const GAP_ANCHOR = (index: number) => `gap-${index}`;

/**
 * Where an operator reads and acts on an unanswered question: the conversations that asked it, the
 * agent's knowledge store and its Files, its Quality Check, AI Finetuning.
 */
export interface GapLinks {
  conversations: string;
  store: string | null;
  files: string | null;
  qualityCheck: string | null;
  finetuning: string;
}

const withSearch = (path: string, search: string) => `${path}?${new URLSearchParams({ search })}`;

/** The line under an unanswered question asked again and answered since (its `answered_since`, a UTC day). */
export const answeredSinceText = (day: string) =>
  `Answered since: asked again on ${day} (UTC) and answered. The count above is of the asks before.`;

/**
 * Why a question went unanswered, as its latest ask's trace says (with its words no passage held),
 * and where that is put right. A
 * page is missing only when nothing held enough of the question and AI Finetuning left none out; a chance under the threshold
 * points to the Quality Check, pages AI Finetuning left out to its rules, and passages good enough
 * to quote in files not tagged for the environment to Files, where the file is tagged: the store
 * lacks nothing then. Asks traced before reasons were kept say nothing of why, and keep the
 * knowledge store's link.
 */
export function gapAdvice(
  gap: Pick<Gap, "fallback_reason" | "left_out" | "lacked_words"> & Partial<Pick<Gap, "files_not_tagged">>,
  links: Omit<GapLinks, "conversations">,
) {
  const reason = gap.fallback_reason;
  if (reason === "file_not_tagged") {
    const names = gap.files_not_tagged ?? [];
    return {
      why: `Why: ${FALLBACK_REASON_TEXTS[reason]}${names.length ? ` ${tagFilesText(names)}` : ""}`,
      // One file: Files opens searched for it, the row to tag the only one shown.
      actions: links.files
        ? [{ to: names.length === 1 ? withSearch(links.files, names[0]) : links.files, label: "Tag the file in Files" }]
        : [],
    };
  }
  // Pages left out by AI Finetuning are there: its rules, not the store, are what to look at.
  const pageMissing = !gap.left_out && (reason === null || reason === "no_passage" || reason === "none_quotable");
  // The words no passage held are often what the missing page is about ("parking").
  const lacked = gap.lacked_words.length ? ` ${noPassageHeldText(gap.lacked_words)}` : "";
  const why = reason
    ? `Why: ${FALLBACK_REASON_TEXTS[reason]}${lacked}${gap.left_out ? " AI Finetuning left out pages holding its key words." : ""}`
    : null;
  const actions: { to: string; label: string }[] = [];
  if (reason === "below_threshold" && links.qualityCheck)
    actions.push({ to: links.qualityCheck, label: "Review the Minimum Retrieval Confidence in Quality Check" });
  if (gap.left_out) actions.push({ to: links.finetuning, label: "Review the rules in AI Finetuning" });
  if (pageMissing && links.store)
    actions.push({ to: links.store, label: "Add the missing page in the knowledge store" });
  return { why, actions };
}
