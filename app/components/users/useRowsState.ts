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
}

const keyOf = (row: { id: string }, index: number) => (row.id ? `u${row.id}` : `new${index}`);

/**
 * The browser's copy of a rows table: edits, rows added at the top or discarded, and the
 * per-row messages (the server's, then the required check's before a save).
 */
export function useRowsState<Row extends { id: string }>({ rows, errors, required, toCheck }: Options<Row>) {
  const [items, setItems] = useState<KeyedRow<Row>[]>(() => rows.map((row, index) => ({ key: keyOf(row, index), row })));
  const [rowErrors, setRowErrors] = useState<Record<string, FieldErrors>>(() => {
    const byKey: Record<string, FieldErrors> = {};
    rows.forEach((row, index) => {
      if (hasErrors(errors[index])) byKey[keyOf(row, index)] = errors[index]!;
    });
    return byKey;
  });
  const nextKey = useRef(rows.length);

  /** Changes fields of one row. A flagged row is re-checked as it is fixed. */
  const update = useCallback((key: string, patch: Partial<Row>) => {
    setItems((current) => current.map((item) => (item.key === key ? { ...item, row: { ...item.row, ...patch } } : item)));
    setRowErrors((current) => {
      const existing = current[key];
      if (!existing) return current;
      const next: FieldErrors = { ...existing };
      for (const [field, value] of Object.entries(patch)) {
        delete next[field];
        if ((required as readonly string[]).includes(field)) Object.assign(next, requiredErrors({ [field]: value }));
      }
      const { [key]: _dropped, ...rest } = current;
      return hasErrors(next) ? { ...rest, [key]: next } : rest;
    });
  }, [required]);

  const addRow = useCallback((row: Row) => {
    const key = `new${nextKey.current++}`;
    setItems((current) => [{ key, row }, ...current]);
    return key;
  }, []);

  const discard = useCallback((key: string) => {
    setItems((current) => current.filter((item) => item.key !== key));
    setRowErrors(({ [key]: _dropped, ...rest }) => rest);
  }, []);

  /** The required check before a save: flags failing rows and says where the first problem is. */
  const validate = useCallback(() => {
    const check = checkRowsToSave(items.map((item) => item.row), toCheck, required);
    const byKey: Record<string, FieldErrors> = {};
    const firstIndex = check.errors.findIndex(Boolean);
    check.errors.forEach((found, index) => {
      if (found) byKey[items[index].key] = found;
    });
    setRowErrors(byKey);
    const found = check.errors[firstIndex];
    const first = found ? { key: items[firstIndex].key, field: required.find((field) => found[field]) ?? Object.keys(found)[0] } : null;
    return { ok: check.ok, first };
  }, [items, required, toCheck]);

  const anyErrors = Object.values(rowErrors).some(hasErrors);
  return { items, rowErrors, anyErrors, update, addRow, discard, validate };
}
