/**
 * A per-field diff of two JSON values, for the History screen: every leaf (a text, number, true or
 * false, null, an empty list or object) gets a path, and the paths of the two sides are compared.
 * Lists are compared item by item in order; an item that is an object is named by its name-like
 * field, so `2 · sensitive_topics › prompt_input_raw` says which one it is.
 */

export interface FieldChange {
  path: string;
  change: "added" | "removed" | "changed";
  /** The values as shown: texts as they are, anything else as JSON. */
  before: string | null;
  after: string | null;
}

/** The fields that name an item of a list, the first one present wins. */
const NAME_FIELDS = ["name", "email", "internal_name", "url", "pattern", "external_system", "finetuning_type"];

const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

function itemLabel(index: number, item: unknown) {
  if (item && typeof item === "object" && !Array.isArray(item)) {
    const named = NAME_FIELDS.map((field) => (item as Record<string, unknown>)[field]).find((value) => typeof value === "string" && value);
    if (named) return `${index + 1} · ${named}`;
  }
  return String(index + 1);
}

/** Every leaf of a value by its path (the separator cannot appear in a key we write). */
function leaves(value: unknown, path: string[], into: Map<string, { label: string; value: unknown }>, labels: string[]) {
  const isObject = value !== null && typeof value === "object";
  const entries = !isObject ? [] : Array.isArray(value) ? value.map((item, i) => [String(i), item] as const) : Object.entries(value);
  if (!entries.length) {
    into.set(path.join("\u0000"), { label: labels.join(" › ") || "(value)", value });
    return;
  }
  for (const [key, item] of entries) {
    const label = Array.isArray(value) ? itemLabel(Number(key), item) : key;
    leaves(item, [...path, key], into, [...labels, label]);
  }
}

/** What changed from `before` to `after`, field by field, in the order the fields come. Nothing before (or after) is everything added (or removed). */
export function diffJson(before: unknown, after: unknown): FieldChange[] {
  const was = new Map<string, { label: string; value: unknown }>();
  const now = new Map<string, { label: string; value: unknown }>();
  if (before !== null && before !== undefined) leaves(before, [], was, []);
  if (after !== null && after !== undefined) leaves(after, [], now, []);
  const changes: FieldChange[] = [];
  for (const [key, { label, value }] of now) {
    const old = was.get(key);
    if (!old) changes.push({ path: label, change: "added", before: null, after: show(value) });
    else if (JSON.stringify(old.value) !== JSON.stringify(value)) changes.push({ path: label, change: "changed", before: show(old.value), after: show(value) });
  }
  for (const [key, { label, value }] of was) {
    if (!now.has(key)) changes.push({ path: label, change: "removed", before: show(value), after: null });
  }
  return changes;
}
