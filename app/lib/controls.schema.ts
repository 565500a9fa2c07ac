import { z } from "zod";
import { QUALITY_CHECK_DEFAULTS, QualityCheckSettings, type Control } from "@contract";

/*
 * The controls forms' schemas and the rules that need them, apart from controls.ts so that zod
 * reaches the browser only when a form needs it: the server imports them, the quality check's
 * form loads this module on first use (~/lib/use-schema-on-first-use).
 */

// conform turns empty fields into undefined: every text defaults back to "".
const text = () => z.string().optional().default("");

export const PersonalityForm = z.object({ prompt_input_raw: text() });
export type PersonalityFormValue = z.output<typeof PersonalityForm>;

export const ProbingForm = z.object({ topics: text(), topic_to_prob_mapping: text() });
export type ProbingFormValue = z.output<typeof ProbingForm>;

export const TopicsForm = z.object({
  rows: z
    .array(z.object({ id: z.number().int().positive().optional(), topic: text(), disclaimer: text() }))
    .max(50)
    .default([]),
});
export type TopicsFormValue = z.output<typeof TopicsForm>;

/**
 * The quality check's fields with the contract's own rules and messages, minus its defaults: a
 * field left blank is an error rather than silently the default, and an unticked checkbox
 * (absent from the post) is false.
 */
const quality = QualityCheckSettings.shape;
export const QualityCheckForm = z.object({
  min_retrieval_confidence: quality.min_retrieval_confidence.unwrap(),
  require_source: z.boolean().default(false),
  max_sources: quality.max_sources.unwrap(),
  fallback_message: quality.fallback_message.unwrap(),
});

export function qualitySettingsOf(control: Control | undefined): QualityCheckSettings {
  const parsed = QualityCheckSettings.safeParse(control?.metadata ?? {});
  return parsed.success ? parsed.data : { ...QUALITY_CHECK_DEFAULTS };
}

/** `controls.0.metadata.{setting}` of a quality-check save ⇒ that setting's field. */
export function qualityFieldOf(path: string): string | null {
  const match = /^controls\.0\.metadata\.(\w+)/.exec(path);
  return match && match[1] in quality ? match[1] : null;
}
