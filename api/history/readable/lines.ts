import { isDeepStrictEqual } from "node:util";
import { cutText, type ChangeLine } from "@contract";

/*
 * The building blocks of a change's readable lines: values shown as the screens show them, a
 * thing's settings compared one by one, and a list's items matched by what they are (a topic by
 * its text, a prompt by its key), never by their place in the list. The kinds' describers
 * (./controls.ts and the others) say which settings and which identity; this module words them.
 */

/** A value longer than this (or on several lines) is not quoted in its line but shown under it. */
const INLINE_CHARS = 120;
/** What is shown under a line is cut here: a change is read, not downloaded. */
const BLOCK_CHARS = 2_000;

/** A recorded secret: never its value, only a tag that changes when it does (docs/decisions/024). */
const SECRET_TAG = /^\[secret not recorded, version [0-9a-f]+\]$/;

/** One setting of a thing, as its screen labels it. */
export interface Field<T> {
  label: string;
  get: (item: T) => unknown;
  /** How the screen shows a value, when not as plain text, a number or yes/no. */
  show?: (value: unknown) => string;
  /** A list of words compared as a set: "Data Tags: added 'Production'". */
  set?: true;
  /** Said by the item's name already: compared, but not listed beside the name when it is added or removed. */
  inName?: true;
}

const isLong = (value: unknown) => typeof value === "string" && (value.length > INLINE_CHARS || value.includes("\n"));

/** A value as a line quotes it: texts in quotes, numbers as they are, yes or no, "(empty)" and "(none)". */
export function shown(value: unknown): string {
  if (value === null || value === undefined) return "(none)";
  if (typeof value === "string") {
    if (SECRET_TAG.test(value)) return "a secret (not recorded)";
    return value === "" ? "(empty)" : `'${cutText(value, INLINE_CHARS)}${value.length > INLINE_CHARS ? "…" : ""}'`;
  }
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "number") return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === "string"))
    return value.length ? value.map(shown).join(", ") : "(none)";
  return cutText(JSON.stringify(value), INLINE_CHARS);
}

const showOf =
  <T>(field: Field<T>) =>
  (value: unknown) =>
    field.show && value !== null && value !== undefined ? field.show(value) : shown(value);

/**
 * The part of two long texts that differs, whole lines: the lines both begin and end with are left
 * out (an ellipsis says so), so one sentence changed in a long personality shows as that sentence.
 * A side with no line of its own there (lines only added, or only removed) is left out.
 */
function differingPart(before: string, after: string): { before?: string; after?: string } {
  const was = before ? before.split("\n") : [];
  const now = after ? after.split("\n") : [];
  let start = 0;
  while (start < was.length && start < now.length && was[start] === now[start]) start++;
  let end = 0;
  while (
    end < was.length - start &&
    end < now.length - start &&
    was[was.length - 1 - end] === now[now.length - 1 - end]
  )
    end++;
  const part = (lines: string[]) => {
    const middle = lines.slice(start, lines.length - end);
    return middle.length ? block([...(start ? ["…"] : []), ...middle, ...(end ? ["…"] : [])].join("\n")) : undefined;
  };
  const parts = { before: part(was), after: part(now) };
  return Object.fromEntries(Object.entries(parts).filter(([, text]) => text !== undefined));
}

const block = (text: string) => (text.length > BLOCK_CHARS ? `${cutText(text, BLOCK_CHARS)}…` : text);

/** "Minimum Retrieval Confidence 0.4 → 0.5"; a long text's line says only that it changed, and shows the difference under it. */
function fieldChange<T>(prefix: string, field: Field<T>, was: unknown, now: unknown): ChangeLine {
  if (field.set) {
    const itemsOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
    const added = itemsOf(now).filter((item) => !itemsOf(was).includes(item));
    const removed = itemsOf(was).filter((item) => !itemsOf(now).includes(item));
    const parts = [
      ...(added.length ? [`added ${shown(added)}`] : []),
      ...(removed.length ? [`removed ${shown(removed)}`] : []),
    ];
    return { text: `${prefix}${field.label}: ${parts.join("; ") || "reordered"}` };
  }
  if (isLong(was) || isLong(now)) {
    const texts = differingPart(typeof was === "string" ? was : "", typeof now === "string" ? now : "");
    return { text: `${prefix}${field.label} changed`, ...texts };
  }
  const show = showOf(field);
  // Two values shown alike (two secrets, two uploaded images) differ only where nobody reads them.
  if (show(was) === show(now)) return { text: `${prefix}${field.label} replaced` };
  return { text: `${prefix}${field.label} ${show(was)} → ${show(now)}` };
}

/** One line per setting that differs between two states of one thing. */
export function fieldLines<T>(
  subject: string,
  fields: Field<T>[],
  before: T | undefined,
  after: T | undefined,
): ChangeLine[] {
  return fields.flatMap((field) => {
    const was = before === undefined ? undefined : field.get(before);
    const now = after === undefined ? undefined : field.get(after);
    return isDeepStrictEqual(was ?? null, now ?? null) ? [] : [fieldChange(`${subject}: `, field, was, now)];
  });
}

/** How the items of one list are told apart and named. */
export interface ListSpec<T> {
  /** What makes an item the same item in both states (not its place in the list). */
  key: (item: T) => string;
  /** How a line names it: "'parking permits'". */
  name: (item: T) => string;
  /** Settings that go with its name in every line ("Site: Default"), not compared: they are part of what it is. */
  context?: Field<T>[];
  /** The settings compared, and listed when it is added or removed. */
  fields: Field<T>[] | ((item: T) => Field<T>[]);
}

/** Items by identity; a second item with the same identity (stored before a rule forbade it) keeps its own. */
function byKey<T>(items: T[], key: (item: T) => string) {
  const map = new Map<string, T>();
  for (const item of items) {
    let k = key(item);
    for (let n = 2; map.has(k); n++) k = `${key(item)}\u0000${n}`;
    map.set(k, item);
  }
  return map;
}

const fieldsOf = <T>(spec: ListSpec<T>, item: T) =>
  typeof spec.fields === "function" ? spec.fields(item) : spec.fields;

/** "added 'x' (Canned Response: 'y')": the item's context and filled settings; its first long text goes under the line. */
function wholeItem<T>(subject: string, verb: "added" | "removed", spec: ListSpec<T>, item: T): ChangeLine {
  const details: string[] = [];
  let long: { label: string; text: string } | undefined;
  for (const field of [...(spec.context ?? []), ...fieldsOf(spec, item)]) {
    if (field.inName) continue;
    const value = field.get(item);
    if (value === "" || value === null || value === undefined || (Array.isArray(value) && !value.length)) continue;
    if (isLong(value) && !long) long = { label: field.label, text: value as string };
    else details.push(`${field.label}: ${showOf(field)(value)}`);
  }
  if (long) details.push(`${long.label}: below`);
  const text = `${subject}: ${verb} ${spec.name(item)}${details.length ? ` (${details.join(", ")})` : ""}`;
  if (!long) return { text };
  return verb === "added" ? { text, after: block(long.text) } : { text, before: block(long.text) };
}

function contextOf<T>(spec: ListSpec<T>, item: T) {
  const parts = (spec.context ?? []).map((field) => `${field.label}: ${showOf(field)(field.get(item))}`);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

/**
 * A list's lines: what was added and changed, in the new order, then what was removed. An item
 * whose identity stayed but a setting changed reads "changed 'X': Canned Response 'a' → 'b'".
 */
export function listLines<T>(subject: string, spec: ListSpec<T>, before: T[], after: T[]): ChangeLine[] {
  const was = byKey(before, spec.key);
  const now = byKey(after, spec.key);
  const lines: ChangeLine[] = [];
  for (const [key, item] of now) {
    if (!was.has(key)) {
      lines.push(wholeItem(subject, "added", spec, item));
      continue;
    }
    const old = was.get(key) as T;
    const labels = new Set<string>();
    const fields = [...fieldsOf(spec, old), ...fieldsOf(spec, item)].filter(
      (field) => !labels.has(field.label) && labels.add(field.label),
    );
    const prefix = `${subject}: changed ${spec.name(item)}${contextOf(spec, item)}: `;
    for (const field of fields) {
      const [a, b] = [field.get(old), field.get(item)];
      if (!isDeepStrictEqual(a ?? null, b ?? null)) lines.push(fieldChange(prefix, field, a, b));
    }
  }
  for (const [key, item] of was) if (!now.has(key)) lines.push(wholeItem(subject, "removed", spec, item));
  return lines;
}

/** A recorded state read defensively: an old or odd row never breaks the page that lists it. */
export const asList = <T>(state: unknown): T[] =>
  Array.isArray(state) ? (state.filter((item) => item && typeof item === "object") as T[]) : [];
export const asRecord = (state: unknown): Record<string, unknown> | undefined =>
  state && typeof state === "object" && !Array.isArray(state) ? (state as Record<string, unknown>) : undefined;

/** A text field of a recorded item (absent as ""). */
export const text = (value: unknown) =>
  typeof value === "string" ? value : value === null || value === undefined ? "" : String(value);

/** "client_secret" ⇒ "Client Secret": a setting the catalogue does not name, said in words. */
export const words = (name: string) =>
  name
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(" ");
