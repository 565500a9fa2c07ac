import { z } from "zod";
import { Id, IdParam } from "./common";
import { Metadata, metadataProblem } from "./safe-strings";
import { blankIfInvisible } from "./text";
import {
  DEFAULT_TRIGGER_POINT,
  AI_PERSONALITY,
  QUALITY_CHECK,
  TOPIC_CONTROL_TYPES,
  CONTROL_TYPES,
  PERSONALITY_MAX_CHARS,
  TOPIC_MAX_CHARS,
  TOPIC_RESPONSE_MAX_CHARS,
  TOPIC_RESPONSE_LABELS,
  AI_PROBING_TYPES,
  PROBING_MAX_CHARS,
} from "./values/controls";
import {
  promptFormatErrors,
  FINETUNING_TYPES,
  PENALTY_EXAMPLE,
  CLEANUP_SELECTOR_PATTERN,
  CLEANUP_METADATA_EXAMPLE,
  isBlankFinetuning,
  isPenaltyType,
  readMetadata,
  readPenalty,
} from "./values/tuning";
export * from "./values/controls";
export * from "./values/tuning";

const PENALTY_MESSAGE = "The penalty must be a number from 0 to 1";

/**
 * What only a regular expression holds, never an address: a backslash escape, ".*" or ".+", an
 * alternation in brackets (a "|" alone may be in an address, which an Exclude rule copies). Patterns are matched as written with * for any characters, so such a pattern would
 * match no page, and its rule would do nothing without a word.
 */
const REGEX_LIKE = /\\|\.[*+]|\([^)]*\|[^)]*\)/;
const REGEX_MESSAGE =
  "Patterns are not regular expressions: * stands for any characters, a leading ^ ties the pattern to the start of the address and a trailing $ to its end";

const METADATA_MESSAGE = `Metadata must be a JSON object, like ${CLEANUP_METADATA_EXAMPLE}`;

/** A trigger point: '' (Default), one of the client's trigger points or an agent's site code. */
export const TriggerPoint = z
  .string({ error: "The trigger point must be text" })
  .trim()
  .max(100, "Trigger points are at most 100 characters")
  .default(DEFAULT_TRIGGER_POINT);

/** `types=a,b` in a query string, or an array. */
const csvOf = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) =>
      typeof value === "string"
        ? value
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : value,
    z.array(item).optional(),
  );
export const ControlType = z.enum(CONTROL_TYPES, { error: `internal_name must be one of ${CONTROL_TYPES.join(", ")}` });
export type ControlType = z.infer<typeof ControlType>;

/**
 * Hallucination Accuracy & Quality Check: settings the assistant applies before it answers.
 * See docs/decisions/010-quality-check-and-finetuning.md for why these and not others.
 */
export const QualityCheckSettings = z.object({
  /**
   * The least chance (0–1) that an answer is right, as the quality check estimates it from what
   * retrieval found (api/chat/answer-confidence.ts); below it the assistant gives the fallback
   * message. The default is chosen in decision 040 on articles the estimate was not fitted on.
   */
  min_retrieval_confidence: z
    .number({ error: "Enter a number from 0 to 1" })
    .min(0, "Enter a number from 0 to 1")
    .max(1, "Enter a number from 0 to 1")
    .default(0.04),
  /** Every answer names the pages or files it comes from; with nothing to cite, no answer. */
  require_source: z.boolean({ error: "Choose yes or no" }).default(true),
  /** How many passages an answer may draw on (and cite). */
  max_sources: z
    .number({ error: "Enter a whole number from 1 to 10" })
    .int("Enter a whole number from 1 to 10")
    .min(1, "Enter a whole number from 1 to 10")
    .max(10, "Enter a whole number from 1 to 10")
    .default(3),
  /** Said when the check fails. */
  fallback_message: z
    .string({ error: "This string is required" })
    .trim()
    .overwrite(blankIfInvisible)
    .min(1, "This string is required")
    .max(1000, "Keep the message to at most 1,000 characters")
    .default(
      "I'm sorry, I couldn't find that in our published information. Please rephrase your question or contact our team, who will be glad to help.",
    ),
});
export type QualityCheckSettings = z.output<typeof QualityCheckSettings>;
export const QUALITY_CHECK_DEFAULTS: QualityCheckSettings = QualityCheckSettings.parse({});

/** A control as the API answers it. `id` is null for a value not saved yet (a default). */
export const Control = z.object({
  id: z.number().int().nullable(),
  app_id: z.number().int(),
  internal_name: ControlType,
  display_name: z.string(),
  prompt_input_raw: z.string(),
  trigger_point: z.string(),
  metadata: z.record(z.string(), z.unknown()),
});
export type Control = z.infer<typeof Control>;

const controlBase = {
  /** Absent or null for a row not saved yet (GET answers unsaved defaults with id null). */
  id: Id.nullish(),
  /** Optional here: the body's (or the query's) app_id says the client. */
  app_id: Id.nullish(),
  display_name: z.string().trim().max(200, "Display names are at most 200 characters").optional(),
  trigger_point: TriggerPoint,
};

const PersonalityInput = z.object({
  ...controlBase,
  internal_name: z.literal(AI_PERSONALITY),
  prompt_input_raw: z
    .string({ error: "This string is required" })
    .max(
      PERSONALITY_MAX_CHARS,
      `Keep the personality to at most ${PERSONALITY_MAX_CHARS.toLocaleString("en-US")} characters`,
    )
    .default(""),
  metadata: Metadata.default({}),
});

const TopicInput = z
  .object({
    ...controlBase,
    internal_name: z.enum(TOPIC_CONTROL_TYPES),
    /** The topic. */
    prompt_input_raw: z
      .string({ error: "This string is required" })
      .trim()
      .overwrite(blankIfInvisible)
      .max(TOPIC_MAX_CHARS, `Keep the topic to at most ${TOPIC_MAX_CHARS} characters`)
      .default(""),
    metadata: z
      .object({
        disclaimer: z
          .string({ error: "This string is required" })
          .trim()
          .overwrite(blankIfInvisible)
          .max(
            TOPIC_RESPONSE_MAX_CHARS,
            `Keep it to at most ${TOPIC_RESPONSE_MAX_CHARS.toLocaleString("en-US")} characters`,
          )
          .default(""),
      })
      .default({ disclaimer: "" }),
  })
  .superRefine((row, ctx) => {
    // A topic without its text (or text without a topic) is half a rule; both blank is an empty row.
    const topic = row.prompt_input_raw;
    const response = row.metadata.disclaimer;
    const label = TOPIC_RESPONSE_LABELS[row.internal_name];
    if (topic && !response)
      ctx.addIssue({
        code: "custom",
        path: ["metadata", "disclaimer"],
        message: `Enter the ${label.toLowerCase()} for this topic`,
      });
    if (!topic && response)
      ctx.addIssue({
        code: "custom",
        path: ["prompt_input_raw"],
        message: `Enter the topic this ${label.toLowerCase()} is for`,
      });
  });

const QualityCheckInput = z.object({
  ...controlBase,
  internal_name: z.literal(QUALITY_CHECK),
  prompt_input_raw: z.string().max(0, "The quality check keeps its settings in metadata").default(""),
  metadata: QualityCheckSettings.default(QUALITY_CHECK_DEFAULTS),
});

/** One control of PUT /v1/controls; what is checked depends on `internal_name`. */
export const ControlInput = z.discriminatedUnion("internal_name", [PersonalityInput, TopicInput, QualityCheckInput], {
  error: `internal_name must be one of ${CONTROL_TYPES.join(", ")}`,
});
export type ControlInput = z.input<typeof ControlInput>;
export type ControlInputParsed = z.output<typeof ControlInput>;

export const ControlsQuery = z.object({
  app_id: IdParam,
  trigger_point: TriggerPoint,
  /** Which controls, e.g. `sensitive_topics,no_go_topics`; all when omitted. */
  types: csvOf(ControlType),
});
export type ControlsQuery = z.input<typeof ControlsQuery>;

/** PUT /v1/controls also takes `?app_id` (the personality save and the default-personality call). */
export const ControlsPutQuery = z.object({ app_id: IdParam.optional() });
export const ControlsPutBody = z.object({
  app_id: Id.optional(),
  controls: z.array(ControlInput, { error: "controls must be a list" }).max(100, "Save at most 100 controls at a time"),
});
export type ControlsPutBody = z.input<typeof ControlsPutBody>;

export const ControlsList = z.object({ controls: z.array(Control) });
export type ControlsList = z.infer<typeof ControlsList>;
export const ControlsSaved = z.object({ message: z.string(), controls: z.array(Control) });
export type ControlsSaved = z.infer<typeof ControlsSaved>;
export const AiProbingType = z.enum(AI_PROBING_TYPES, {
  error: `internal_name must be one of ${AI_PROBING_TYPES.join(", ")}`,
});
export type AiProbingType = z.infer<typeof AiProbingType>;

export const AiProbing = z.object({
  /** null: nothing saved yet. */
  id: z.number().int().nullable(),
  app_id: z.number().int(),
  internal_name: AiProbingType,
  display_name: z.string(),
  prompt_input_raw: z.string(),
  trigger_point: z.string(),
});
export type AiProbing = z.infer<typeof AiProbing>;

export const AiProbingInput = z.object({
  id: Id.nullish(),
  app_id: Id.nullish(),
  internal_name: AiProbingType,
  display_name: z.string().trim().max(200).optional(),
  prompt_input_raw: z
    .string({ error: "This string is required" })
    .max(PROBING_MAX_CHARS, `Keep it to at most ${PROBING_MAX_CHARS.toLocaleString("en-US")} characters`)
    .default(""),
  trigger_point: TriggerPoint,
});
export const AiProbingsQuery = z.object({ trigger_point: TriggerPoint, types: csvOf(AiProbingType) });
export const AiProbingsBody = z.object({
  app_id: Id.optional(),
  ai_probings: z.array(AiProbingInput, { error: "ai_probings must be a list" }).max(20),
});
export type AiProbingsBody = z.input<typeof AiProbingsBody>;
export const AiProbingsList = z.object({ ai_probings: z.array(AiProbing) });
export type AiProbingsList = z.infer<typeof AiProbingsList>;
export const AiProbingsSaved = AiProbingsList.extend({ message: z.string() });

export const InputPrompt = z.object({
  id: z.number().int(),
  app_id: z.number().int(),
  /** Prompt Key. */
  internal_name: z.string(),
  /** Prompt. */
  prompt_input_raw: z.string(),
  trigger_point: z.string(),
  updated_at: z.string(),
});
export type InputPrompt = z.infer<typeof InputPrompt>;

export const InputPromptInput = z
  .object({
    id: Id.nullish(),
    internal_name: z.string({ error: "This string is required" }).trim().overwrite(blankIfInvisible).default(""),
    prompt_input_raw: z.string({ error: "This string is required" }).trim().overwrite(blankIfInvisible).default(""),
    trigger_point: TriggerPoint,
  })
  .superRefine((row, ctx) => {
    // A row left completely blank is ignored on save; anything else needs both fields.
    if (!row.id && !row.internal_name && !row.prompt_input_raw) return;
    for (const field of ["internal_name", "prompt_input_raw"] as const)
      if (!row[field]) ctx.addIssue({ code: "custom", path: [field], message: "This string is required" });
    for (const [field, message] of Object.entries(promptFormatErrors(row)))
      ctx.addIssue({ code: "custom", path: [field], message });
  });
export type InputPromptInput = z.input<typeof InputPromptInput>;

export const InputPromptsQuery = z.object({ trigger_point: TriggerPoint });
export const InputPromptsBody = z.object({
  input_prompts: z
    .array(InputPromptInput, { error: "input_prompts must be a list" })
    .max(200, "Save at most 200 prompts at a time"),
});
export type InputPromptsBody = z.input<typeof InputPromptsBody>;
export const InputPromptsList = z.object({ input_prompts: z.array(InputPrompt) });
export type InputPromptsList = z.infer<typeof InputPromptsList>;
export const InputPromptsSaved = InputPromptsList.extend({ message: z.string() });
export const FinetuningType = z.enum(FINETUNING_TYPES, {
  error: `finetuning_type must be one of ${FINETUNING_TYPES.join(", ")}`,
});
export type FinetuningType = z.infer<typeof FinetuningType>;

/**
 * The Metadata JSON of a clean-up rule: what to cut out of every page before its text is
 * extracted. Each entry is a tag name (`table`), a class (`.promo`) or an id (`#cookie-banner`).
 */
export const CleanupMetadata = z
  .object({
    tags: z
      .array(
        z
          .string({ error: "Each entry is a tag name, .class or #id" })
          .trim()
          .regex(CLEANUP_SELECTOR_PATTERN, "Each entry is a tag name (footer), a class (.promo) or an id (#banner)"),
        { error: `List what to remove under "tags", like ${CLEANUP_METADATA_EXAMPLE}` },
      )
      .min(1, `List what to remove under "tags", like ${CLEANUP_METADATA_EXAMPLE}`)
      .max(100, "At most 100 entries per rule"),
  })
  .catchall(z.unknown());
export type CleanupMetadata = z.infer<typeof CleanupMetadata>;

export const Finetuning = z.object({
  id: z.number().int(),
  app_id: z.number().int(),
  /** The Site column. */
  trigger_point: z.string(),
  finetuning_type: FinetuningType,
  pattern: z.string(),
  /** 0–1 for the weightage types; null for clean-up rules. */
  penalty: z.number().nullable(),
  metadata: z.record(z.string(), z.unknown()),
});
export type Finetuning = z.infer<typeof Finetuning>;

/**
 * A row of POST /v1/controls/upsert_finetunings. The penalty may come as text from a form and
 * the metadata as JSON text; rows whose fields are all blank come out as null (ignored), and a
 * saved row marked `deleted` is removed in the same save.
 */
export const FinetuningInput = z
  .object({
    /** Absent or null for a new row (its temporary id stays in the screen). */
    id: Id.nullish(),
    app_id: Id.nullish(),
    trigger_point: TriggerPoint,
    finetuning_type: FinetuningType,
    pattern: z
      .string({ error: "The pattern must be text" })
      .trim()
      .max(500, "Patterns are at most 500 characters")
      .default(""),
    penalty: z.union([z.number(), z.string(), z.null()], { error: PENALTY_MESSAGE }).optional(),
    metadata: z
      .union([z.string(), z.record(z.string(), z.unknown()), z.null()], { error: METADATA_MESSAGE })
      .optional(),
    deleted: z.boolean().optional(),
  })
  .transform((row, ctx) => {
    const penalty = readPenalty(row.penalty);
    const metadata = readMetadata(row.metadata);
    const penaltyType = isPenaltyType(row.finetuning_type);
    if (row.deleted) {
      if (!row.id) return null; // an unsaved row deleted before saving: nothing to do
      return { id: row.id, app_id: row.app_id ?? undefined, deleted: true as const };
    }
    if (!row.id && isBlankFinetuning({ trigger_point: row.trigger_point, pattern: row.pattern, penalty, metadata }))
      return null;

    const metadataRefusal = metadata === "invalid" ? METADATA_MESSAGE : metadataProblem(metadata);
    if (metadataRefusal) ctx.addIssue({ code: "custom", path: ["metadata"], message: metadataRefusal });
    if (penaltyType) {
      if (!row.pattern)
        ctx.addIssue({ code: "custom", path: ["pattern"], message: "Enter a pattern (use * to match every page)" });
      else if (REGEX_LIKE.test(row.pattern))
        ctx.addIssue({ code: "custom", path: ["pattern"], message: REGEX_MESSAGE });
      if (penalty === null)
        ctx.addIssue({
          code: "custom",
          path: ["penalty"],
          message: `Enter a penalty from 0 to 1, for example ${PENALTY_EXAMPLE}`,
        });
      else if (penalty === "invalid" || penalty < 0 || penalty > 1)
        ctx.addIssue({ code: "custom", path: ["penalty"], message: PENALTY_MESSAGE });
    } else {
      if (row.trigger_point !== DEFAULT_TRIGGER_POINT) {
        ctx.addIssue({
          code: "custom",
          path: ["trigger_point"],
          message:
            "Clean-up rules act when pages are indexed, which all agents of a client share: choose Default as the site",
        });
      }
      if (!metadataRefusal) {
        const parsed = CleanupMetadata.safeParse(metadata);
        if (!parsed.success)
          for (const issue of parsed.error.issues)
            ctx.addIssue({ code: "custom", path: ["metadata", ...issue.path.map(String)], message: issue.message });
      }
    }
    return {
      id: row.id ?? undefined,
      app_id: row.app_id ?? undefined,
      deleted: false as const,
      trigger_point: row.trigger_point,
      finetuning_type: row.finetuning_type,
      pattern: penaltyType ? row.pattern : "",
      penalty: penaltyType && typeof penalty === "number" ? penalty : null,
      metadata: metadata === "invalid" ? {} : metadata,
    };
  });
export type FinetuningInput = z.input<typeof FinetuningInput>;
export type FinetuningChange = NonNullable<z.output<typeof FinetuningInput>>;

export const FinetuningsQuery = z.object({ app_id: IdParam, trigger_point: z.string().trim().max(100).optional() });
export const FinetuningsUpsertBody = z.object({
  app_id: Id.optional(),
  finetunings: z
    .array(FinetuningInput, { error: "finetunings must be a list" })
    .max(500, "Save at most 500 rules at a time"),
});
export type FinetuningsUpsertBody = z.input<typeof FinetuningsUpsertBody>;
export const FinetuningsList = z.object({ finetunings: z.array(Finetuning) });
export type FinetuningsList = z.infer<typeof FinetuningsList>;
export const FinetuningsSaved = FinetuningsList.extend({
  message: z.string(),
  saved: z.number().int(),
  deleted: z.number().int(),
});
export type FinetuningsSaved = z.infer<typeof FinetuningsSaved>;

export const BulkDeleteFinetuningsBody = z.object({
  app_id: Id,
  ids: z.array(Id, { error: "ids must be a list of rule ids" }).min(1, "Choose at least one rule to delete").max(1000),
});
export type BulkDeleteFinetuningsBody = z.input<typeof BulkDeleteFinetuningsBody>;
export const DeletedResult = z.object({ message: z.string(), deleted: z.number().int() });
