import { z } from "zod";
import { CONTROL_CHARACTER, DIRECTION_CONTROL } from "./text";

/** Longer than any text the console sends (prompts, descriptions); bulk lists are many short strings. */
export const MAX_STRING_LENGTH = 100_000;

/** How deep any JSON the API reads may nest: a value nested thousands deep overflows the stack of whatever walks it. */
export const MAX_NESTING = 32;

// eslint-disable-next-line no-control-regex
const NUL = /\u0000/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with one string, in words for the person who sent it, or null. */
export function stringProblem(value: string): string | null {
  if (NUL.test(value)) return "Contains a NUL character";
  if (CONTROL_CHARACTER.test(value)) return "Contains a control character";
  if (DIRECTION_CONTROL.test(value))
    return "Contains a text-direction control character (U+202A–U+202E, U+2066–U+2069)";
  if (LONE_SURROGATE.test(value)) return "Contains an invalid character (a lone surrogate)";
  if (value.length > MAX_STRING_LENGTH)
    return `Keep this to at most ${MAX_STRING_LENGTH.toLocaleString("en")} characters`;
  return null;
}

/** Every string (and key) of a JSON value, by the field path forms understand ("users.0.email"). */
function collectProblems(value: unknown, path: string[], problems: Record<string, string[]>, depth: number) {
  const field = path.length ? path.join(".") : "_";
  if (depth > MAX_NESTING) {
    (problems[field] ??= []).push("Nested too deeply");
    return;
  }
  if (typeof value === "string") {
    const problem = stringProblem(value);
    if (problem) (problems[field] ??= []).push(problem);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => collectProblems(item, [...path, String(index)], problems, depth + 1));
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = stringProblem(key);
      if (keyProblem) (problems[[...path, "(key)"].join(".")] ??= []).push(keyProblem);
      else collectProblems(item, [...path, key], problems, depth + 1);
    }
  }
}

/**
 * What is wrong with the strings of a JSON value, by field path ("_" for the value itself); empty
 * when nothing. The API's guard runs it on every request body; text parsed later (a JSON value
 * posted as text, an uploaded file) runs it again.
 */
export function unsafeStringsOf(value: unknown) {
  const problems: Record<string, string[]> = {};
  collectProblems(value, [], problems, 0);
  return problems;
}

/** The most an object of free-form metadata may hold, as JSON text: far more than any rule or agent keeps. */
export const METADATA_MAX_CHARS = 20_000;
/** The longest name of a metadata entry. */
export const METADATA_KEY_MAX_CHARS = 100;

/**
 * What is wrong with the shape of a JSON value, found without recursion (so a value nested
 * thousands deep is refused rather than overflowing the stack): nested deeper than the API reads,
 * or an entry whose name is not one short line.
 */
function shapeProblem(value: unknown): string | null {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== "object" || item === null) continue;
    if (depth > MAX_NESTING) return `Nested too deeply: at most ${MAX_NESTING} levels`;
    for (const [key, child] of Object.entries(item)) {
      if (!Array.isArray(item) && /\p{Cc}/u.test(key)) return "An entry's name must be one line, without tabs";
      if (key.length > METADATA_KEY_MAX_CHARS)
        return `Keep each entry's name to at most ${METADATA_KEY_MAX_CHARS} characters`;
      pending.push([child, depth + 1]);
    }
  }
  return null;
}

/**
 * What is wrong with an object of free-form metadata (an agent's, a personality's, a finetuning
 * rule's), in one message, or null. It is stored as sent, so it is held to what any request's
 * JSON is (no control character, not nested deeper than the API reads), its entries' names are
 * one line of at most 100 characters, and the whole of it is at most 20,000 characters of JSON.
 */
export function metadataProblem(value: Record<string, unknown>): string | null {
  const shape = shapeProblem(value);
  if (shape) return shape;
  const [field, messages] = Object.entries(unsafeStringsOf(value))[0] ?? [];
  if (field) return field.endsWith("(key)") ? `An entry's name: ${messages[0]}` : `"${field}": ${messages[0]}`;
  if (JSON.stringify(value).length > METADATA_MAX_CHARS)
    return `Keep the metadata to at most ${METADATA_MAX_CHARS.toLocaleString("en")} characters of JSON`;
  return null;
}

/** An object of free-form metadata, refused beside its field when `metadataProblem` finds something wrong. */
export const Metadata = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const problem = metadataProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
