import { FinetuningInput } from "@contract";
import type { FieldErrors } from "./required-check";
import { finetuningCellOf, finetuningInputOf, tableOfType, type FinetuningFormRow } from "./tuning";

/*
 * The AI Finetuning rows' check with the contract's FinetuningInput schema (the API runs the same),
 * apart from tuning.ts so that zod reaches the browser only when the tables are first used
 * (~/lib/use-schema-on-first-use); the server imports it directly.
 */

/**
 * The contract's own check of one row (the API runs the same): null when it passes or is a new
 * row left blank (spec section 5: blank rows are ignored), else the messages by cell.
 */
export function checkFinetuningRow(row: FinetuningFormRow): { blank: boolean; errors: FieldErrors | null } {
  if (row.deleted) return { blank: false, errors: null };
  if (!tableOfType(row.finetuning_type)) return { blank: false, errors: { finetuning_type: ["Choose HTML or PDF"] } };
  const parsed = FinetuningInput.safeParse(finetuningInputOf(row));
  if (parsed.success) return { blank: parsed.data === null, errors: null };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const cell = finetuningCellOf(issue.path.map((p) => (typeof p === "symbol" ? String(p) : p)));
    const list = (errors[cell] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return { blank: false, errors };
}

/** For the browser's check before a save. */
export const finetuningRowErrors = (row: FinetuningFormRow) => checkFinetuningRow(row).errors;
