import type { Context, Next } from "hono";
import { CONTROL_CHARACTER, DIRECTION_CONTROL } from "@contract";
import { badRequest } from "./errors";

/** Longer than any text the console sends (prompts, descriptions); bulk lists are many short strings. */
export const MAX_STRING_LENGTH = 100_000;
const MAX_DEPTH = 32;

// eslint-disable-next-line no-control-regex
const NUL = /\u0000/;
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
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
function collectProblems(value: unknown, path: string[], problems: Record<string, string[]>, depth = 0) {
  const field = path.length ? path.join(".") : "_";
  if (depth > MAX_DEPTH) {
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

/** What is wrong with the strings of a JSON value read from elsewhere (an uploaded file), by field path; empty when nothing. */
export function unsafeStringsOf(value: unknown) {
  const problems: Record<string, string[]> = {};
  collectProblems(value, [], problems);
  return problems;
}

function decodedPath(rawPath: string) {
  try {
    return decodeURIComponent(rawPath);
  } catch {
    return null;
  }
}

export const NOT_UTF8_MESSAGE = "The request body is not valid UTF-8 text";
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body's text, or null when its bytes are not UTF-8: decoding leniently would store each bad
 * byte as U+FFFD, a changed text nobody typed (as a lone surrogate would; route.ts readJson).
 */
function utf8TextOf(bytes: ArrayBuffer): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** Whether a body is read as JSON: it says so, or says nothing. The guard below reads only such bodies, so routes parse no other. */
export const isJsonBody = (contentType: string | undefined) => !contentType || /\bjson\b/i.test(contentType);
export const JSON_BODIES_ONLY = "Send the request body as JSON (Content-Type: application/json)";

/**
 * One guard in front of every API route: text PostgreSQL cannot store (NUL), control and direction characters,
 * text that is not text at all (a lone UTF-16 surrogate, a JSON body whose bytes are not UTF-8) or that is absurdly long is refused with a 400 naming the field,
 * in the path, the query or a JSON body, before any handler (or the database) sees it.
 * Routes still validate shapes and their own lengths with the contract's schemas.
 */
export async function rejectUnsafeInput(c: Context, next: Next) {
  const url = new URL(c.req.url);
  const path = decodedPath(url.pathname);
  if (path === null || stringProblem(path)) throw badRequest("The address contains characters that are not allowed");
  const problems: Record<string, string[]> = {};
  for (const [key, value] of url.searchParams) {
    const problem = stringProblem(key) ?? stringProblem(value);
    if (problem) (problems[key] ??= []).push(problem);
  }
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && isJsonBody(c.req.header("content-type"))) {
    const text = utf8TextOf(await c.req.arrayBuffer());
    if (text === null) throw badRequest(NOT_UTF8_MESSAGE);
    let body: unknown;
    try {
      body = text.trim() ? JSON.parse(text) : undefined;
    } catch {
      body = undefined; // the route answers malformed JSON itself
    }
    collectProblems(body, [], problems);
  }
  const fields = Object.keys(problems);
  if (fields.length) {
    const named =
      fields.length > 3 ? `${fields.slice(0, 3).join(", ")} and ${fields.length - 3} more` : fields.join(", ");
    throw badRequest(`Invalid ${named}: ${problems[fields[0]][0]}`, problems);
  }
  await next();
}
