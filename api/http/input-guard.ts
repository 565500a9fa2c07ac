import type { Context, Next } from "hono";
import { stringProblem, unsafeStringsOf } from "@contract";
import { badRequest } from "./errors";

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
    Object.assign(problems, unsafeStringsOf(body));
  }
  const fields = Object.keys(problems);
  if (fields.length) {
    const named =
      fields.length > 3 ? `${fields.slice(0, 3).join(", ")} and ${fields.length - 3} more` : fields.join(", ");
    throw badRequest(`Invalid ${named}: ${problems[fields[0]][0]}`, problems);
  }
  await next();
}
