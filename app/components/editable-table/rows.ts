import { checkRequiredRows, type FieldErrors } from "~/lib/required-check";

/** What the actions answer when they do not redirect: the rows to show again, nothing typed lost. */
export interface TableActionData<Row> {
  rows: Row[];
  /** Aligned with `rows`; field ⇒ messages, `row` for problems of the whole row. */
  errors: (FieldErrors | null)[];
  formError: string | null;
  /**
   * The ids of the rows whose change the save waits to have confirmed (a removal posted without
   * JavaScript, which asks nothing when it is ticked): nothing was saved, the rows are as posted.
   */
  toConfirm?: string[];
}

export const ROW_ERROR = "row";
export const FIX_ROWS_MESSAGE = "Fix the highlighted rows before saving.";

/** The fields whose value differs from what was loaded (every filled field of a new row). */
export function changedFields<Row extends { loaded: Record<string, string> | null }>(
  row: Row,
  fields: readonly (keyof Row & string)[],
) {
  const values = row as unknown as Record<string, string>;
  return new Set(fields.filter((field) => (row.loaded ? values[field] !== row.loaded[field] : values[field] !== "")));
}

export const isNewRow = (row: { id: string }) => row.id === "";

/**
 * Rows read as text first: a row shows inputs when it is new, opened with Edit, or holds a change
 * or a message (so nothing typed or flagged is ever hidden behind text).
 */
export function showsInputs<Row extends { id: string; editing: boolean; loaded: Record<string, string> | null }>(
  row: Row,
  fields: readonly (keyof Row & string)[],
  flagged: boolean,
) {
  return isNewRow(row) || row.editing || flagged || changedFields(row, fields).size > 0;
}

/** A row put back as it was loaded (Cancel on an opened row). */
export function reverted<Row extends { loaded: Record<string, string> | null; editing: boolean }>(row: Row): Row {
  return row.loaded ? { ...row, ...row.loaded, editing: false } : row;
}

/**
 * The required check over the rows about to be saved (new or changed ones; removals need none).
 * Untouched rows are never sent, so they are never held against the save either.
 */
export function checkRowsToSave<Row extends object>(
  rows: readonly Row[],
  needsCheck: (row: Row) => boolean,
  fields: readonly (keyof Row & string)[],
) {
  const checked = checkRequiredRows(rows, fields);
  const errors = checked.errors.map((rowErrors, index) => (needsCheck(rows[index]) ? rowErrors : null));
  return { ok: errors.every((e) => e === null), errors };
}
