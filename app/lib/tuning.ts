import { DEFAULT_TRIGGER_POINT, DEFAULT_TRIGGER_POINT_LABEL } from "@contract/values/controls";
import {
  CLEANUP_METADATA_EXAMPLE,
  FINETUNING_TABLES,
  isBlankFinetuning,
  isPenaltyType,
  PAGE_TYPE_LABELS,
  PENALTY_EXAMPLE,
  promptFormatErrors,
  readMetadata,
  readPenalty,
} from "@contract/values/tuning";
import type { ClientApp, Finetuning, FinetuningType, FinetuningsUpsertBody, InputPrompt } from "@contract";
import { changedFields, isNewRow, ROW_ERROR } from "~/components/editable-table/rows";
import { hasErrors, requiredErrors, type FieldErrors } from "./required-check";

/*
 * Pure rules of the Input Prompts and AI Finetuning screens (spec sections 2, 4 and 5): the rows
 * as their forms carry them and which rows a save sends. The contract's check of a finetuning row
 * (zod) is in tuning.schema.ts, which the browser loads only when the tables are first used.
 */

const SAVED_ID = /^\d+$/;

// ── Input prompts ───────────────────────────────────────────────────────────────────────────

/** A row of the Input Prompts form: every value a string, plus what the loader gave. */
export interface PromptFormRow {
  /** "" for a prompt not saved yet. */
  id: string;
  /** Prompt Key. */
  internal_name: string;
  /** Prompt. */
  prompt_input_raw: string;
  loaded: { internal_name: string; prompt_input_raw: string } | null;
}

/** Spec section 5: internal_name and prompt_input_raw required. */
export const PROMPT_REQUIRED_FIELDS = ["internal_name", "prompt_input_raw"] as const;
export const PROMPT_COLUMNS = ["Prompt Key", "Prompt"] as const;

export const blankPromptRow = (): PromptFormRow => ({ id: "", internal_name: "", prompt_input_raw: "", loaded: null });

export function promptFormRow(prompt: InputPrompt): PromptFormRow {
  const values = { internal_name: prompt.internal_name, prompt_input_raw: prompt.prompt_input_raw };
  return { id: String(prompt.id), ...values, loaded: values };
}

export const changedPromptFields = (row: PromptFormRow) => changedFields(row, PROMPT_REQUIRED_FIELDS);

/** A prompt the save sends (and the required check covers): new, or changed since it was loaded. */
export const promptRowNeedsSave = (row: PromptFormRow) => isNewRow(row) || changedPromptFields(row).size > 0;

/**
 * A prompt to save's messages by cell, or null when it passes: the required check (spec section
 * 5), then the API's own rules on what was filled in, so that one save names every problem.
 */
export function promptRowErrors(row: PromptFormRow): FieldErrors | null {
  const errors = requiredErrors(row, PROMPT_REQUIRED_FIELDS);
  for (const [field, message] of Object.entries(promptFormatErrors(row))) errors[field] ??= [message];
  return hasErrors(errors) ? errors : null;
}

// ── AI Finetuning ───────────────────────────────────────────────────────────────────────────

export type FinetuningTable = (typeof FINETUNING_TABLES)[number];
export type FinetuningTableKey = FinetuningTable["key"];

/** Short names of the tables, for the accessible names of their cells ("Penalty, URL pattern row 2"). */
export const TABLE_ROW_NAMES: Record<FinetuningTableKey, string> = {
  url_pattern: "URL pattern",
  page_type: "HTML/PDF",
  html_tags: "Clean-up",
};

export const PAGE_TYPE_OPTIONS = Object.entries(PAGE_TYPE_LABELS).map(([value, label]) => ({ value, label }));
export const PENALTY_PLACEHOLDER = `e.g. ${PENALTY_EXAMPLE}`;
export const METADATA_PLACEHOLDER = CLEANUP_METADATA_EXAMPLE;

/** The values of a rule the user edits, as text. */
export interface FinetuningValues {
  /** The Site column: '' is Default. */
  trigger_point: string;
  finetuning_type: string;
  pattern: string;
  /** As typed (a number from 0 to 1). */
  penalty: string;
  /** JSON text; blank is saved as {}. */
  metadata: string;
}

export const FINETUNING_FIELDS = ["trigger_point", "finetuning_type", "pattern", "penalty", "metadata"] as const;
export type FinetuningField = (typeof FINETUNING_FIELDS)[number];

/**
 * A row of the AI Finetuning form (spec section 4: rows track isNew, hasChanges and deleted). A
 * saved rule carries its id and what was loaded (posted back as one hidden field); a new one a
 * temporary id (`new-<n>`) until the save gives it a real one.
 */
export interface FinetuningFormRow extends FinetuningValues {
  id: string;
  /** Marked with the row's delete button: hidden, and removed from the server on save. */
  deleted: boolean;
  loaded: FinetuningValues | null;
}

export const TEMPORARY_ID_PREFIX = "new-";

/** isNew: the row has no saved rule behind it (its id is a temporary one). */
export const isNewFinetuning = (row: { id: string }) => !SAVED_ID.test(row.id);

/** A temporary id not used by any of the rows. */
export function nextTemporaryId(rows: readonly { id: string }[]) {
  let highest = 0;
  for (const { id } of rows) {
    const match = /^new-(\d+)$/.exec(id);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return `${TEMPORARY_ID_PREFIX}${highest + 1}`;
}

export const tableOfType = (type: string): FinetuningTable | undefined =>
  FINETUNING_TABLES.find((table) => (table.types as readonly string[]).includes(type));

export const blankFinetuningRow = (table: FinetuningTable, id: string): FinetuningFormRow => ({
  id,
  trigger_point: DEFAULT_TRIGGER_POINT,
  finetuning_type: table.types[0],
  pattern: "",
  penalty: "",
  metadata: "",
  deleted: false,
  loaded: null,
});

/** '+ Add' of one table: a blank row with a temporary id at the top. */
export function withBlankFinetuningRow(rows: FinetuningFormRow[], tableKey: FinetuningTableKey) {
  const table = FINETUNING_TABLES.find((t) => t.key === tableKey)!;
  return [blankFinetuningRow(table, nextTemporaryId(rows)), ...rows];
}

/** A row's delete button: a new row goes at once, a saved one is marked (and hidden) until the save. */
export function withoutFinetuningRow(rows: FinetuningFormRow[], index: number) {
  return rows.flatMap((row, i) => (i !== index ? [row] : isNewFinetuning(row) ? [] : [{ ...row, deleted: true }]));
}

export const formatMetadata = (metadata: Record<string, unknown>) =>
  Object.keys(metadata).length ? JSON.stringify(metadata) : "";

export function finetuningFormRow(rule: Finetuning): FinetuningFormRow {
  const values: FinetuningValues = {
    trigger_point: rule.trigger_point,
    finetuning_type: rule.finetuning_type,
    pattern: rule.pattern,
    penalty: rule.penalty === null ? "" : String(rule.penalty),
    metadata: formatMetadata(rule.metadata),
  };
  return { id: String(rule.id), ...values, deleted: false, loaded: { ...values } };
}

/** JSON text ⇒ its canonical text (so spacing alone is no change); anything unreadable as is. */
function canonicalJson(text: string) {
  if (!text.trim()) return "{}";
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.trim();
  }
}

/** Whether two texts of a rule's field are one value: spaces around, a penalty's decimals, metadata's JSON spacing. */
export function sameFinetuningValue(field: FinetuningField, a: string, b: string) {
  switch (field) {
    case "pattern":
    case "trigger_point":
      return a.trim() === b.trim();
    case "penalty": {
      const [x, y] = [a.trim(), b.trim()];
      return x === y || (x !== "" && y !== "" && Number(x) === Number(y));
    }
    case "metadata":
      return canonicalJson(a) === canonicalJson(b);
    case "finetuning_type":
      return a === b;
  }
}

/** The fields that differ from what was loaded (every filled field of a new row). */
export function changedFinetuningFields(row: FinetuningFormRow): Set<FinetuningField> {
  const loaded = row.loaded ?? { ...row, trigger_point: "", pattern: "", penalty: "", metadata: "" };
  return new Set(FINETUNING_FIELDS.filter((field) => !sameFinetuningValue(field, row[field], loaded[field])));
}

/** hasChanges: a saved row edited since it was loaded. */
export const finetuningHasChanges = (row: FinetuningFormRow) =>
  !isNewFinetuning(row) && changedFinetuningFields(row).size > 0;

/** The row as the API takes it (penalty as text, metadata as JSON text: the contract reads both). */
export function finetuningInputOf(row: FinetuningFormRow): FinetuningsUpsertBody["finetunings"][number] {
  const id = isNewFinetuning(row) ? null : Number(row.id);
  const type = row.finetuning_type as FinetuningType;
  if (row.deleted)
    return { id, trigger_point: row.loaded?.trigger_point ?? row.trigger_point, finetuning_type: type, deleted: true };
  const penaltyType = isPenaltyType(row.finetuning_type);
  return {
    id,
    trigger_point: row.trigger_point,
    finetuning_type: type,
    pattern: penaltyType ? row.pattern : "",
    penalty: penaltyType ? row.penalty : null,
    // A penalty rule keeps whatever metadata it had; the screen edits it for clean-up rules only.
    metadata: penaltyType ? (row.loaded?.metadata ?? "") : row.metadata,
  };
}

/** The cell an error path (after `finetunings.<n>.`) belongs to; anything else is the row's. */
export function finetuningCellOf(path: readonly (string | number)[]): string {
  const [first] = path;
  if (
    first === "trigger_point" ||
    first === "pattern" ||
    first === "penalty" ||
    first === "metadata" ||
    first === "finetuning_type"
  )
    return first;
  return ROW_ERROR;
}

/**
 * A new row left blank (spec section 5: blank rows are ignored), by the contract's own rule; a row
 * of a type no table holds is not blank, so the check before a save flags it.
 */
export function isBlankNewFinetuning(row: FinetuningFormRow) {
  if (!tableOfType(row.finetuning_type)) return false;
  const input = finetuningInputOf(row);
  return isBlankFinetuning({
    trigger_point: input.trigger_point ?? "",
    pattern: input.pattern ?? "",
    penalty: readPenalty(input.penalty),
    metadata: readMetadata(input.metadata),
  });
}

/**
 * Whether the save sends this row: a saved row marked deleted, a new row with something in it,
 * or a saved row changed since it was loaded.
 */
export function finetuningRowNeedsSave(row: FinetuningFormRow) {
  if (row.deleted) return !isNewFinetuning(row);
  if (isNewFinetuning(row)) return !isBlankNewFinetuning(row);
  return finetuningHasChanges(row);
}

/** Rows the browser checks before a save: those sent, except deletions. */
export const finetuningRowToCheck = (row: FinetuningFormRow) => !row.deleted && finetuningRowNeedsSave(row);

/**
 * The Site column's choices: Default, the client's trigger points and its agents' site codes
 * (what the API accepts), plus any other value a saved rule has.
 */
export function siteOptions(app: {
  trigger_points: readonly string[];
  agents: readonly Pick<ClientApp["agents"][number], "site_code">[];
}) {
  const codes = [...app.trigger_points, ...app.agents.map((agent) => agent.site_code)]
    .map((code) => code.trim())
    .filter(Boolean);
  return [
    { value: DEFAULT_TRIGGER_POINT, label: DEFAULT_TRIGGER_POINT_LABEL },
    ...[...new Set(codes)].map((code) => ({ value: code, label: code })),
  ];
}

/** The choices of one row's Site: a site no longer offered (a removed trigger point) stays shown. */
export function siteOptionsFor(options: readonly { value: string; label: string }[], value: string) {
  return options.some((option) => option.value === value) ? [...options] : [...options, { value, label: value }];
}

export type FinetuningsIntent =
  | { kind: "save" }
  | { kind: "add-row"; table: FinetuningTableKey }
  | { kind: "delete-row"; index: number }
  | { kind: "unknown" };

export const addRowIntent = (table: FinetuningTableKey) => `add-row:${table}`;
export const deleteRowIntent = (index: number) => `delete-row:${index}`;

/** The pressed button: `save`, `add-row:<table key>` or `delete-row:<row index>`. */
export function finetuningsIntent(value: string): FinetuningsIntent {
  if (value === "save") return { kind: "save" };
  const add = /^add-row:([a-z_]+)$/.exec(value);
  const table = add && FINETUNING_TABLES.find((t) => t.key === add[1]);
  if (table) return { kind: "add-row", table: table.key };
  const remove = /^delete-row:(\d+)$/.exec(value);
  if (remove) return { kind: "delete-row", index: Number(remove[1]) };
  return { kind: "unknown" };
}
