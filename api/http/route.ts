import type { Context, Hono } from "hono";
import { z, type ZodType } from "zod";
import { HttpError, badRequest, fieldErrorsOf } from "./errors";
import { isJsonBody, JSON_BODIES_ONLY } from "./input-guard";
import { hasBrokenCharacters, stringProblem } from "@contract";
import type { ApiDeps } from "../deps";
import { CallerScope, authenticate, type Caller, type ConsoleCallEnv } from "../auth/caller";
import { TooManyRequests } from "./throttle";
import { DATABASE_UNAVAILABLE, inputErrorOf, isDatabaseUnavailable } from "../db/errors";

type Method = "get" | "post" | "put" | "patch" | "delete";

/** What the OpenAPI document is generated from: one entry per route that exists. */
export interface RouteDoc {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  auth: boolean;
  form: boolean;
  body?: ZodType;
  query?: ZodType;
  response?: ZodType;
  status: number;
}

interface Input<B, Q, P> {
  body: B;
  /** The multipart form, for routes declared with `form: true` (uploads). */
  form: FormData | null;
  query: Q;
  params: P;
  c: Context;
  deps: ApiDeps;
}

interface BaseSpec<B, Q, P, R> {
  method: Method;
  /** Hono path syntax (`/v1/apps/:appId`). */
  path: string;
  summary: string;
  tag: string;
  body?: ZodType<B>;
  query?: ZodType<Q>;
  params?: ZodType<P>;
  response?: ZodType<R>;
  status?: 200 | 201 | 202;
  /** Accepts multipart/form-data instead of a JSON body. */
  form?: true;
}

type PublicSpec<B, Q, P, R> = BaseSpec<B, Q, P, R> & {
  auth: "public";
  handler: (input: Input<B, Q, P>) => Promise<R>;
};
type UserSpec<B, Q, P, R> = BaseSpec<B, Q, P, R> & {
  auth?: "user";
  handler: (input: Input<B, Q, P> & { caller: Caller }) => Promise<R>;
};

export interface RouteBuilder {
  <B = undefined, Q = undefined, P = undefined, R = unknown>(spec: PublicSpec<B, Q, P, R> | UserSpec<B, Q, P, R>): void;
  docs: RouteDoc[];
}

async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  // A body sent as another type (text/plain) passes the input guard unread: refused, not parsed anyway.
  if (!isJsonBody(c.req.header("content-type"))) throw new HttpError(415, JSON_BODIES_ONLY);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest("The request body is not valid JSON");
  }
  // A lone surrogate would reach the database as U+FFFD: refuse it rather than store a changed text.
  if (hasBrokenCharacters(body))
    throw badRequest("The request body holds a broken character (half of an emoji or symbol)");
  return body;
}

/** The longest file name an upload may give (most file systems' limit). */
export const UPLOAD_NAME_MAX_CHARS = 255;

/**
 * What is wrong with a form's field: its text, or a file's name, which messages repeat ("x.png does
 * not contain a PNG image") and which the JSON guard in front of every route never sees. A
 * direction control in a name would make a message read as another file's ("…exe" shown as "…png").
 */
function formFieldProblem(value: FormDataEntryValue): string | null {
  if (typeof value === "string") return stringProblem(value);
  const problem = stringProblem(value.name);
  if (problem) return `The file's name: ${problem}`;
  return value.name.length > UPLOAD_NAME_MAX_CHARS
    ? `Keep the file's name to at most ${UPLOAD_NAME_MAX_CHARS} characters`
    : null;
}

async function readForm(c: Context): Promise<FormData> {
  if (!(c.req.header("content-type") ?? "").includes("multipart/form-data"))
    throw badRequest("Send the files as multipart/form-data");
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw badRequest("The upload could not be read");
  }
  for (const [field, value] of form.entries()) {
    const problem = formFieldProblem(value);
    if (problem) throw badRequest(problem, { [field]: [problem] });
  }
  return form;
}

function parseWith<T>(schema: ZodType<T> | undefined, value: unknown, where: string): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(`Invalid ${where}`, fieldErrorsOf(result.error));
  return result.data;
}

/** The console page's scope of callers, when the console made this call in-process (api/auth/caller.ts). */
export function callerScopeOf(c: Context) {
  const scope = (c.env as ConsoleCallEnv | undefined)?.callerScope;
  return scope instanceof CallerScope ? scope : null;
}

/**
 * One wrapper for every API route: authenticates (bearer user token), validates params, query and
 * body with the contract's zod schemas, runs the handler and answers JSON. Handlers throw
 * HttpError for expected failures; anything else becomes a logged 500 without internals.
 */
export function routeBuilder(app: Hono, deps: ApiDeps): RouteBuilder {
  const docs: RouteDoc[] = [];
  const define = (<B, Q, P, R>(spec: PublicSpec<B, Q, P, R> | UserSpec<B, Q, P, R>) => {
    const isPublic = spec.auth === "public";
    docs.push({
      method: spec.method,
      path: spec.path,
      summary: spec.summary,
      tag: spec.tag,
      auth: !isPublic,
      form: spec.form ?? false,
      body: spec.body,
      query: spec.query,
      response: spec.response,
      status: spec.status ?? 200,
    });
    app.on(spec.method.toUpperCase(), spec.path, async (c) => {
      const scope = callerScopeOf(c);
      const header = c.req.header("authorization");
      const caller = isPublic
        ? null
        : await (scope ? scope.callerOf(c.req.method, header, deps) : authenticate(header, deps));
      const params = parseWith(spec.params, c.req.param(), "path");
      const query = parseWith(spec.query, Object.fromEntries(new URL(c.req.url).searchParams), "query");
      const form = spec.form ? await readForm(c) : null;
      const body = spec.body ? parseWith(spec.body, await readJson(c), "request body") : (undefined as B);
      const input = { body, form, query, params, c, deps };
      const result = isPublic
        ? await (spec as PublicSpec<B, Q, P, R>).handler(input)
        : await (spec as UserSpec<B, Q, P, R>).handler({ ...input, caller: caller! });
      return c.json(result as object, spec.status ?? 200);
    });
  }) as RouteBuilder;
  define.docs = docs;
  return define;
}

/** Fields a refusal names at most: a body of 50,000 unknown keys is not answered with 3 MB of errors. */
export const MAX_ERROR_FIELDS = 100;

function cappedErrors(errors: Record<string, string[]>) {
  const fields = Object.keys(errors);
  if (fields.length <= MAX_ERROR_FIELDS) return errors;
  const kept = Object.fromEntries(fields.slice(0, MAX_ERROR_FIELDS).map((field) => [field, errors[field]]));
  return { ...kept, _: [...(kept._ ?? []), `… and ${fields.length - MAX_ERROR_FIELDS} more fields refused`] };
}

/** Maps thrown errors to the contract's ErrorBody. */
export function errorResponse(error: unknown, c: Context, log: ApiDeps["log"]) {
  if (error instanceof TooManyRequests) {
    return c.json({ message: error.message }, 429, { "Retry-After": String(error.retryAfterSeconds) });
  }
  if (error instanceof HttpError) {
    return c.json(
      { message: error.message, ...(error.errors ? { errors: cappedErrors(error.errors) } : {}) },
      error.status,
    );
  }
  if (error instanceof z.ZodError) {
    // A handler's own output failed its schema: our bug, not the caller's.
    log.error("response validation failed", error);
    return c.json({ message: "Internal server error" }, 500);
  }
  if (isDatabaseUnavailable(error)) {
    log.warn(`${c.req.method} ${c.req.path}: database unavailable: ${(error as Error).message}`);
    return c.json({ message: DATABASE_UNAVAILABLE }, 503, { "Retry-After": "5" });
  }
  const refused = inputErrorOf(error);
  if (refused) {
    log.warn(`${c.req.method} ${c.req.path} refused by the database: ${(error as Error).message}`);
    return c.json({ message: refused.message }, refused.status);
  }
  log.error(`unhandled error on ${c.req.method} ${c.req.path}`, error);
  return c.json({ message: "Internal server error" }, 500);
}
