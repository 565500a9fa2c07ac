import { createHash } from "node:crypto";
import type { ChangeKind } from "@contract";
import { changedFields } from "../history/describe";
import { contentOf } from "../history/written";

/** One change an import would record, as History holds it (its summary without the import's name). */
export interface PreviewedChange {
  kind: string;
  target: string;
  summary: string;
  before: unknown;
  after: unknown;
}

/** JSON with every object's keys in one order, so one value is always one text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/**
 * A fingerprint (64 hex digits) of what importing the file would do to the client: the client, the
 * file's content, and each change, with the values the import would replace as they are now. Two
 * previews have the same one while neither the file nor what the import would replace changes; an
 * edit to a value the import would overwrite, or to a name a change is listed under, gives another.
 * A thing the import would add is fingerprinted by its summary (its id is a new one each time), and
 * a changed thing by the fields that change, so what the import leaves alone (a file's indexing
 * status) changes nothing here. Fields are compared by what the operator sees of them (a topic by its
 * text, not the row that holds it), as History compares them.
 */
export function importDigest(clientId: number | null, file: unknown, changes: PreviewedChange[]) {
  const replaced = changes.map((change) => {
    if (change.before === null) return [change.kind, change.summary];
    const kind = change.kind as ChangeKind;
    const was = contentOf(kind, change.before) as Record<string, unknown>;
    const fields = changedFields(was, contentOf(kind, change.after)).sort();
    return [change.kind, change.target, change.summary, fields.map((field) => [field, was[field] ?? null])];
  });
  return createHash("sha256")
    .update(canonical({ client: clientId, file, changes: replaced }))
    .digest("hex");
}
