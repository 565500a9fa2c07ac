import { useCallback, useRef, useState } from "react";
import { hasErrors, requiredErrors, type FieldErrors } from "~/lib/required-check";
import { checkRowsToSave } from "./rows";

export interface KeyedRow<Row> {
  /** Stable for React and for cell ids; never posted. */
  key: string;
  row: Row;
}

interface Options<Row> {
  rows: Row[];
  errors: (FieldErrors | null)[];
  required: readonly (keyof Row & string)[];
  /** Which rows the save would send (and so must pass the required check). */
  toCheck: (row: Row) => boolean;
  /**
   * A screen's own check instead of the required check (e.g. its contract schema): a row's
   * messages by cell, or null when it passes. Keep it stable (a module-level function).
   */
  check?: (row: Row) => FieldErrors | null;
}

const keyOf = (row: { id: string }, index: number) => (row.id ? `u${row.id}` : `new${index}`);

/**
 * The browser's copy of a rows table: edits, rows added at the top or discarded, and the
 * per-row messages (the server's, then the required check's before a save).
 */
export function useRowsState<Row extends { id: string }>({ rows, errors, required, toCheck, check }: Options<Row>) {
  const [items, setItems] = useState<KeyedRow<Row>[]>(() =>
    rows.map((row, index) => ({ key: keyOf(row, index), row })),
  );
  const [rowErrors, setRowErrors] = useState<Record<string, FieldErrors>>(() => {
    const byKey: Record<string, FieldErrors> = {};
    rows.forEach((row, index) => {
      if (hasErrors(errors[index])) byKey[keyOf(row, index)] = errors[index]!;
    });
    return byKey;
  });
  const nextKey = useRef(rows.length);

  /** Changes fields of one row. A flagged row is re-checked as it is fixed. */
  const update = useCallback(
    (key: string, patch: Partial<Row>) => {
      const before = check ? items.find((item) => item.key === key)?.row : undefined;
      setItems((current) =>
        current.map((item) => (item.key === key ? { ...item, row: { ...item.row, ...patch } } : item)),
      );
      setRowErrors((current) => {
        const existing = current[key];
        if (!existing) return current;
        const next: FieldErrors = { ...existing };
        const fresh = check && before ? (check({ ...before, ...patch }) ?? {}) : null;
        for (const [field, value] of Object.entries(patch)) {
          delete next[field];
          if (fresh) {
            if (fresh[field]) next[field] = fresh[field];
          } else if ((required as readonly string[]).includes(field))
            Object.assign(next, requiredErrors({ [field]: value }));
        }
        const { [key]: _dropped, ...rest } = current;
        return hasErrors(next) ? { ...rest, [key]: next } : rest;
      });
    },
    [required, check, items],
  );

  const addRow = useCallback((row: Row) => {
    const key = `new${nextKey.current++}`;
    setItems((current) => [{ key, row }, ...current]);
    return key;
  }, []);

  const discard = useCallback((key: string) => {
    setItems((current) => current.filter((item) => item.key !== key));
    setRowErrors(({ [key]: _dropped, ...rest }) => rest);
  }, []);

  /** The required check before a save: flags failing rows; true when none fails. */
  const validate = useCallback(() => {
    const rowsNow = items.map((item) => item.row);
    const found = check
      ? rowsNow.map((row) => (toCheck(row) ? check(row) : null))
      : checkRowsToSave(rowsNow, toCheck, required).errors;
    const byKey: Record<string, FieldErrors> = {};
    found.forEach((rowErrors, index) => {
      if (hasErrors(rowErrors)) byKey[items[index].key] = rowErrors!;
    });
    setRowErrors(byKey);
    return Object.keys(byKey).length === 0;
  }, [items, required, toCheck, check]);

  const anyErrors = Object.values(rowErrors).some(hasErrors);
  return { items, rowErrors, anyErrors, update, addRow, discard, validate };
}
