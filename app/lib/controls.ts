import { TOPIC_ROWS, type TopicControlType } from "@contract/values/controls";
import type { AiProbingType, Control, ControlInput, QualityCheckSettings } from "@contract";
import type { TopicsFormValue } from "./controls.schema";

/*
 * The controls and smart-probing screens' pure parts: the rows each screen shows, which entries a
 * save sends (the spec: only those non-empty or changed) and where the API's field errors belong
 * on the form. The forms' zod schemas are in controls.schema.ts (contract schemas included), so
 * that these screens do not ship zod to the browser when they open.
 */

export const READ_ONLY_MESSAGE = "You can view these settings, but not change them.";
export const NOT_SAVED_YET =
  "Not saved for this trigger point yet: this is the text the assistant uses now (the Default's, or the built-in default).";
export const NOTHING_TO_SAVE = "Nothing to save: nothing was entered or changed.";
/** An emptied AI Personality where none of the trigger point's own is saved: the API stores none (spec: non-empty or changed). */
export const EMPTY_PERSONALITY_NOT_SAVED =
  "Nothing saved: an empty AI Personality is not stored where this trigger point has none of its own, so it keeps using the text shown.";

/** `place`: the trigger point as people know it (`triggerPointName`: its agent's name, or "Default"). */
/** An emptied probing text where the trigger point has none of its own saved: the API stores none, as for the personality. */
export const EMPTY_PROBING_NOT_SAVED =
  "An emptied text is not stored where this trigger point has none of its own, so it keeps using the text shown.";

export const savedMessage = (what: string, place: string) => `${what} saved for ${place}.`;

/** Browsers post text-area line breaks as CRLF; what is stored and compared uses LF. */
export const normalizeNewlines = (text: string) => text.replace(/\r\n?/g, "\n");

/** The spec's rule for personality and probing texts: send one when it is non-empty or changed. */
export const shouldSendText = (text: string, saved: string) => text.trim() !== "" || text !== normalizeNewlines(saved);

// ── Topic lists ────────────────────────────────────────────────────────────────────────────────

export interface TopicRow {
  id: number | null;
  topic: string;
  disclaimer: string;
}

const disclaimerOf = (control: Control) =>
  typeof control.metadata.disclaimer === "string" ? control.metadata.disclaimer : "";

/** The list's saved topics first, then blank rows up to the spec's 8. */
export function topicRowsOf(controls: Control[], type: TopicControlType): TopicRow[] {
  const saved = controls
    .filter((control) => control.internal_name === type)
    .map((control) => ({ id: control.id, topic: control.prompt_input_raw, disclaimer: disclaimerOf(control) }));
  const blanks = Array.from({ length: Math.max(0, TOPIC_ROWS - saved.length) }, () => ({
    id: null,
    topic: "",
    disclaimer: "",
  }));
  return [...saved, ...blanks];
}

/** The rows as conform's default value (ids as text, as a form holds them). */
export const topicsDefaultValue = (rows: TopicRow[]) => ({
  rows: rows.map((row) => ({
    id: row.id === null ? "" : String(row.id),
    topic: row.topic,
    disclaimer: row.disclaimer,
  })),
});

/**
 * What a topic-list save sends: every row with text, and every saved row (a saved row is never
 * blank, so a blank one was emptied: the API removes it). Untouched blank rows stay home.
 * `formIndexOf[i]` is the form row of the i-th control sent, to place the API's messages.
 */
export function topicChanges(rows: TopicsFormValue["rows"], type: TopicControlType, triggerPoint: string) {
  const controls: ControlInput[] = [];
  const formIndexOf: number[] = [];
  rows.forEach((row, index) => {
    const topic = row.topic.trim();
    const disclaimer = normalizeNewlines(row.disclaimer).trim();
    if (!topic && !disclaimer && !row.id) return;
    controls.push({
      id: row.id ?? null,
      internal_name: type,
      prompt_input_raw: topic,
      metadata: { disclaimer },
      trigger_point: triggerPoint,
    });
    formIndexOf.push(index);
  });
  return { controls, formIndexOf };
}

/** `controls.{i}.…` of a topic save ⇒ the form field it is about (null: about the whole form). */
export function topicFieldOf(path: string, formIndexOf: number[]): string | null {
  const match = /^controls\.(\d+)\.(.+)$/.exec(path);
  const index = match ? formIndexOf[Number(match[1])] : undefined;
  if (!match || index === undefined) return null;
  if (match[2] === "prompt_input_raw" || match[2] === "id") return `rows[${index}].topic`;
  if (match[2].startsWith("metadata")) return `rows[${index}].disclaimer`;
  return null;
}

export const personalityFieldOf = (path: string): string | null =>
  path === "controls.0.prompt_input_raw" ? "prompt_input_raw" : null;

/** `ai_probings.{i}.prompt_input_raw` ⇒ the text area of the i-th entry sent. */
export function probingFieldOf(path: string, sent: readonly AiProbingType[]): string | null {
  const match = /^ai_probings\.(\d+)\.prompt_input_raw$/.exec(path);
  return match ? (sent[Number(match[1])] ?? null) : null;
}

// ── Edit state ─────────────────────────────────────────────────────────────────────────────────

/** Field name ⇒ its text as loaded (a ticked checkbox is "on", an unticked one ""). */
export type Baseline = Record<string, string>;

export const topicsBaseline = (rows: TopicRow[]): Baseline =>
  Object.fromEntries(
    rows.flatMap((row, i) => [
      [`rows[${i}].topic`, row.topic],
      [`rows[${i}].disclaimer`, row.disclaimer],
    ]),
  );

export const qualityBaseline = (settings: QualityCheckSettings): Baseline => ({
  min_retrieval_confidence: String(settings.min_retrieval_confidence),
  require_source: settings.require_source ? "on" : "",
  max_sources: String(settings.max_sources),
  fallback_message: settings.fallback_message,
});

/** The dirty flag: whether any field's current text differs from what was loaded. */
export function differsFrom(baseline: Baseline, current: Baseline) {
  return Object.entries(baseline).some(
    ([name, value]) => normalizeNewlines(current[name] ?? "") !== normalizeNewlines(value),
  );
}
