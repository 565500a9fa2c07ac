/**
 * The spec's generic required check of the data screens (section 5): every checked field of an
 * object must be non-empty; numbers are not checked. Pure, so the browser (before submit) and the
 * action (never trusting the browser) run the same rule.
 */

export const REQUIRED_MESSAGES = {
  field: "This field is required",
  string: "This string is required",
  array: "This array is required",
  arrayItem: "This array item is required",
  unsupported: "Unsupported data type",
} as const;

/** Field path ⇒ messages; array items are reported as `field.index`. */
export type FieldErrors = Record<string, string[]>;

const isBlank = (value: string) => value.trim() === "";

function itemMessage(item: unknown): string | null {
  if (item === null || item === undefined) return REQUIRED_MESSAGES.arrayItem;
  if (typeof item === "string") return isBlank(item) ? REQUIRED_MESSAGES.arrayItem : null;
  if (typeof item === "number") return null;
  return REQUIRED_MESSAGES.unsupported;
}

/** The messages for one value, keyed relative to its field ("" for the field itself). */
function valueErrors(value: unknown): [suffix: string, message: string][] {
  if (value === null || value === undefined) return [["", REQUIRED_MESSAGES.field]];
  if (typeof value === "number") return [];
  if (typeof value === "string") return isBlank(value) ? [["", REQUIRED_MESSAGES.string]] : [];
  if (Array.isArray(value)) {
    if (value.length === 0) return [["", REQUIRED_MESSAGES.array]];
    return value.flatMap((item, index) => {
      const message = itemMessage(item);
      return message ? [[`.${index}`, message] as [string, string]] : [];
    });
  }
  return [["", REQUIRED_MESSAGES.unsupported]];
}

/**
 * Checks `fields` of `value` (every own field when omitted). Returns the failing fields only; an
 * empty object means the value passes.
 */
export function requiredErrors<T extends object>(value: T, fields?: readonly (keyof T & string)[]): FieldErrors {
  const record = value as Record<string, unknown>;
  const names = fields ?? (Object.keys(record) as (keyof T & string)[]);
  const errors: FieldErrors = {};
  for (const name of names) {
    for (const [suffix, message] of valueErrors(record[name])) (errors[`${name}${suffix}`] ??= []).push(message);
  }
  return errors;
}

export const hasErrors = (errors: FieldErrors | null | undefined) => Boolean(errors && Object.keys(errors).length > 0);

export interface RowsCheck {
  /** False when any row failed: saving stops. */
  ok: boolean;
  /** Per row, aligned with the input; `null` for rows that pass. */
  errors: (FieldErrors | null)[];
  /** Indexes of the rows that failed (to flag them). */
  flagged: number[];
}

/** The check over a table's rows: rows that fail are flagged and the save must not go ahead. */
export function checkRequiredRows<T extends object>(
  rows: readonly T[],
  fields: readonly (keyof T & string)[],
): RowsCheck {
  const errors = rows.map((row) => {
    const rowErrors = requiredErrors(row, fields);
    return hasErrors(rowErrors) ? rowErrors : null;
  });
  const flagged = errors.flatMap((rowErrors, index) => (rowErrors ? [index] : []));
  return { ok: flagged.length === 0, errors, flagged };
}
