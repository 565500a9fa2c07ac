import { isDeepStrictEqual } from "node:util";
import { formatDateTimeUtc } from "@contract";

/** Two lists matched item by item through `key`: what was added, removed or changed. */
export function listChanges<T>(
  before: unknown,
  after: unknown,
  key: (item: T) => string,
  /** How an item is named, where that is not what identifies it (a renamed item is changed, not added). */
  label: (item: T) => string = key,
) {
  const was = new Map((Array.isArray(before) ? (before as T[]) : []).map((item) => [key(item), item]));
  const now = new Map((Array.isArray(after) ? (after as T[]) : []).map((item) => [key(item), item]));
  const labelled = (items: Map<string, T>, keys: string[]) => keys.map((k) => label(items.get(k) as T));
  return {
    added: labelled(
      now,
      [...now.keys()].filter((k) => !was.has(k)),
    ),
    changed: labelled(
      now,
      [...now.keys()].filter((k) => was.has(k) && !isDeepStrictEqual(was.get(k), now.get(k))),
    ),
    removed: labelled(
      was,
      [...was.keys()].filter((k) => !now.has(k)),
    ),
  };
}

/** "Input prompts of Default: added welcome; changed fees" (the names, a few of them, else how many). */
export function listSummary(subject: string, changes: ReturnType<typeof listChanges>) {
  const few = (names: string[]) => (names.length <= 3 ? names.join(", ") : `${names.length}`);
  const parts = (["added", "changed", "removed"] as const)
    .filter((what) => changes[what].length)
    .map((what) => `${what} ${few(changes[what])}`);
  return parts.length ? `${subject}: ${parts.join("; ")}` : `${subject} changed`;
}

/** The top-level fields of two objects whose values differ. */
export function changedFields(before: unknown, after: unknown) {
  const was = (before ?? {}) as Record<string, unknown>;
  const now = (after ?? {}) as Record<string, unknown>;
  return [...new Set([...Object.keys(was), ...Object.keys(now)])].filter(
    (name) => !isDeepStrictEqual(was[name], now[name]),
  );
}

/** When a recorded state was, as the restore's summary says it: as the screens write a date (MM/DD/YYYY | HH:mm UTC). */
export const stateDate = (at: Date) => formatDateTimeUtc(at);
