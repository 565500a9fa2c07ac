/** The input prompts' and AI finetuning's plain values: no schema and no zod, so browser code can import them (schemas: contract/controls.ts). */

/*
 * Input prompts and AI finetuning, apart from the controls' values (./controls.ts) so that the
 * controls screens do not load the finetuning tables' values, nor these screens the controls'.
 */

// ── Input prompts ───────────────────────────────────────────────────────────────────────────

export const PROMPT_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
export const PROMPT_KEY_MAX_CHARS = 100;
export const PROMPT_MAX_CHARS = 10_000;

export const PROMPT_FORMAT_MESSAGES = {
  keyPattern: "Use letters, digits, '_', '.' and '-' only, without spaces",
  keyTooLong: `Prompt keys are at most ${PROMPT_KEY_MAX_CHARS} characters`,
  promptTooLong: `Keep the prompt to at most ${PROMPT_MAX_CHARS.toLocaleString("en-US")} characters`,
} as const;

/**
 * What is wrong with a prompt's filled-in fields, by field (the API's rules, checked the same way
 * by the console before a save, so that one save names every problem; a missing field is the
 * required check's to say).
 */
export function promptFormatErrors(prompt: { internal_name: string; prompt_input_raw: string }) {
  const errors: Partial<Record<"internal_name" | "prompt_input_raw", string>> = {};
  const key = prompt.internal_name.trim();
  if (key.length > PROMPT_KEY_MAX_CHARS) errors.internal_name = PROMPT_FORMAT_MESSAGES.keyTooLong;
  else if (key && !PROMPT_KEY_PATTERN.test(key)) errors.internal_name = PROMPT_FORMAT_MESSAGES.keyPattern;
  if (prompt.prompt_input_raw.trim().length > PROMPT_MAX_CHARS)
    errors.prompt_input_raw = PROMPT_FORMAT_MESSAGES.promptTooLong;
  return errors;
}

/** The prompt textarea: 6 to 10 rows, counted at 60 characters per row. */
export const INPUT_PROMPT_ROWS = { min: 6, max: 10, charsPerRow: 60 } as const;

export const inputPromptRows = (text: string) =>
  Math.min(
    INPUT_PROMPT_ROWS.max,
    Math.max(INPUT_PROMPT_ROWS.min, Math.ceil(text.length / INPUT_PROMPT_ROWS.charsPerRow)),
  );

export const INPUT_PROMPT_MESSAGES = {
  saved: "Successfully saved the input prompts.",
  deleteFailed: "Unable to delete prompt. Please try again.",
  confirmDelete: "Do you want to delete the prompt",
} as const;

// ── AI Finetuning ───────────────────────────────────────────────────────────────────────────

export const FINETUNING_TYPES = ["url_pattern", "html_weightage", "pdf_weightage", "html_tags_to_remove"] as const;

// In common.ts: a conversation's "lower this page" correction applies it without the rest of this module.
export { PENALTY_EXAMPLE } from "./common";

/** The Type column of the HTML/PDF table. */
export const PAGE_TYPE_LABELS = { html_weightage: "HTML", pdf_weightage: "PDF" } as const;

export const CLEANUP_SELECTOR_PATTERN = /^(?:[A-Za-z][A-Za-z0-9-]*|[.#][A-Za-z_-][A-Za-z0-9_-]*)$/;

export const CLEANUP_METADATA_EXAMPLE = '{"tags": ["footer", ".cookie-banner", "#promo"]}';

/** The screen's three tables: which types each holds and the columns it shows. */
export const FINETUNING_TABLES = [
  {
    key: "url_pattern",
    title: "URL Pattern Based Weightage",
    types: ["url_pattern"],
    columns: ["Site", "Pattern", "Penalty"],
  },
  {
    key: "page_type",
    title: "Page HTML/PDF Based Weightage",
    types: ["html_weightage", "pdf_weightage"],
    columns: ["Site", "Type", "Pattern", "Penalty"],
  },
  { key: "html_tags", title: "Clean up HTML Tags", types: ["html_tags_to_remove"], columns: ["Site", "Metadata JSON"] },
] as const satisfies readonly {
  key: string;
  title: string;
  types: readonly (typeof FINETUNING_TYPES)[number][];
  columns: readonly string[];
}[];

export const PENALTY_TYPES = [
  "url_pattern",
  "html_weightage",
  "pdf_weightage",
] as const satisfies readonly (typeof FINETUNING_TYPES)[number][];
export const isPenaltyType = (type: string): type is (typeof PENALTY_TYPES)[number] =>
  (PENALTY_TYPES as readonly string[]).includes(type);

/** A finetuning row's penalty as posted: '' / null / missing ⇒ null; numbers and numeric text ⇒ a number (range checked by the row). */
export function readPenalty(value: unknown): number | null | "invalid" {
  if (value === undefined || value === null) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : "invalid";
  const text = String(value).trim();
  if (!text) return null;
  // A decimal as people write it ("0.5", ".5", "1", "5e-1"); Number alone would also read "0x1" and "0b1".
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return "invalid";
  const number = Number(text);
  return Number.isFinite(number) ? number : "invalid";
}

/** A finetuning row's metadata as posted: blank text ⇒ {}; JSON text ⇒ its object; an object as is. */
export function readMetadata(value: unknown): Record<string, unknown> | "invalid" {
  if (value === undefined || value === null) return {};
  if (typeof value === "string") {
    if (!value.trim()) return {};
    try {
      value = JSON.parse(value);
    } catch {
      return "invalid";
    }
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : "invalid";
}

/**
 * The spec: a finetuning row is ignored when all its fields (site, pattern, penalty; or site,
 * metadata) are blank. Here, not only in the contract's schema, so that the console's screen
 * can tell a blank row without loading zod.
 */
export function isBlankFinetuning(row: {
  trigger_point: string;
  pattern: string;
  penalty: ReturnType<typeof readPenalty>;
  metadata: ReturnType<typeof readMetadata>;
}): boolean {
  return (
    !row.trigger_point.trim() &&
    !row.pattern.trim() &&
    row.penalty === null &&
    row.metadata !== "invalid" &&
    Object.keys(row.metadata).length === 0
  );
}
