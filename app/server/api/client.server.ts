import { STATUS_CODES } from "node:http";
import { json, redirect } from "@remix-run/node";
import type { ZodType } from "zod";
import { ErrorBody, TokenPair } from "@contract";
import { NOT_SAVED_JUST_NOW, NOT_SHOWN_JUST_NOW, refreshLimitedNotSaved, refreshLimitedNotShown } from "~/lib/messages";
import type { ConsoleContext } from "../context.server";
import { postedFields } from "../http/form-data.server";
import { commitSession, destroySession, getSession, type ConsoleSession } from "../session.server";
import { keepUnsentPost } from "../unsent-post.server";

/**
 * A non-2xx answer of the API, with its contract error body. It has the fields by which Remix
 * knows an error answer (`isRouteErrorResponse`: status, statusText, internal, data), so a refusal
 * no loader or action handles is answered with the API's own status and message (a 400 for a
 * search the API refuses), never turned into a 500.
 */
export class ApiError extends Error {
  readonly statusText: string;
  readonly internal = false;
  readonly data: string;
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    /** A limit's wait, in seconds, as the API's Retry-After said it (its 429s and 503s carry one). */
    readonly retryAfter: string | null = null,
  ) {
    super(body.message);
    // A reason phrase must be plain ASCII (the message, with its typographic quotes, may not be).
    this.statusText = STATUS_CODES[status] ?? "";
    this.data = body.message;
  }
  get fieldErrors() {
    return this.body.errors ?? {};
  }
  /**
   * The refusal in words for a toast: its fields' own messages ("Keep the question to at most
   * 1,000 characters") where it has them, since its message is then the general "Invalid request body".
   */
  get reason(): string {
    const messages = Object.values(this.fieldErrors).flat();
    return messages.length ? messages.join(" ") : this.message;
  }
  /** How the console answers with this refusal: its status, and a limit's or an outage's Retry-After passed on. */
  get answerInit(): ResponseInit {
    return { status: this.status, headers: this.retryAfter ? { "Retry-After": this.retryAfter } : {} };
  }
}

/**
 * Whether a page shows this failure where the user is, by the form or in a toast, with what was
 * typed kept, rather than on its error screen: a refusal (4xx), or the API unable to reach its data
 * just now (503), when the same post will do in a few seconds. Anything else is the server's fault.
 */
export const shownInPlace = (error: unknown): error is ApiError =>
  error instanceof ApiError && (error.status < 500 || error.status === 503);

/** The wait when a limit's answer names none (the API's limits count by the minute). */
export const LIMIT_WAIT_SECONDS = "60";

/**
 * What the console says when the API could not take a request just now, after a post and otherwise:
 * its 503 (its database did not answer), or a limit that refused to renew the sign-in (its 429: too
 * many renewals from this address), answered as the limit it is, with its wait.
 */
function interruptionWords(status: 429 | 503, retryAfter: string | null) {
  if (status === 503) return { retryAfter, afterPost: NOT_SAVED_JUST_NOW, otherwise: NOT_SHOWN_JUST_NOW };
  const wait = retryAfter ?? LIMIT_WAIT_SECONDS;
  return {
    retryAfter: wait,
    afterPost: refreshLimitedNotSaved(Number(wait)),
    otherwise: refreshLimitedNotShown(Number(wait)),
  };
}

/**
 * The API could not take this request just now (`interruptionWords`); nothing was changed. After a
 * post, it says the post was not saved (the loaders that follow it in the same request say so too),
 * else that the page cannot be shown yet. A post's fields are kept in the request's scope: a page
 * that cannot be drawn either answers with them, to send again (resend-page.server.ts).
 */
async function interrupted(request: Request, context: ConsoleContext, status: 429 | 503, retryAfter: string | null) {
  const said = interruptionWords(status, retryAfter);
  const scope = context.requestScope;
  const posting = request.method !== "GET" && request.method !== "HEAD";
  if (posting && scope && scope.interruptedPost === undefined) {
    const fields = await postedFields(request);
    const { pathname, search } = new URL(request.url);
    scope.interruptedPost = fields && { to: `${pathname}${search}`, fields };
    scope.interruptedRetryAfter = said.retryAfter;
    scope.interruptedAs = { status, message: said.afterPost };
  }
  const afterPost = posting || Boolean(scope?.interruptedPost);
  return new ApiError(status, { message: afterPost ? said.afterPost : said.otherwise }, said.retryAfter);
}

type Query = Record<string, string | number | boolean | undefined | null | string[]>;
interface CallOptions {
  query?: Query;
  /** JSON body, or a FormData sent as multipart (uploads). */
  body?: unknown;
}

/** The API host as the console sees it: a base URL that `apiFetch` resolves in or out of process. */
const API_BASE = "http://api.internal";

/**
 * Query values that mean something when empty: an empty trigger point is one (Default), where an
 * absent one is every trigger point. Every other empty value is left out, as a form leaves it.
 */
const MEANINGFUL_WHEN_EMPTY = new Set(["trigger_point"]);

function buildUrl(path: string, query?: Query) {
  const url = new URL(path, API_BASE);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (value === "" && !MEANINGFUL_WHEN_EMPTY.has(key)) continue;
    url.searchParams.set(key, Array.isArray(value) ? value.join(",") : String(value));
  }
  return url;
}

async function send(context: ConsoleContext, method: string, path: string, options: CallOptions, token?: string) {
  const headers = new Headers({ accept: "application/json" });
  if (token) headers.set("authorization", `Bearer ${token}`);
  // The browser's address, as this server established it: an API on another host that names this
  // console in its TRUST_PROXY then counts each browser's sign-ins and refreshes against its own
  // limit, not every browser's against this console's one address. The in-process API reads no header.
  if (context.clientAddress) headers.set("x-forwarded-for", context.clientAddress);
  const isForm = options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers.set("content-type", "application/json");
  const response = await context.apiFetch(
    new Request(buildUrl(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : isForm ? (options.body as FormData) : JSON.stringify(options.body),
    }),
  );
  return response;
}

/**
 * Sends bytes to a signed storage link: our API host's own (`/storage/upload?…`, reached like any
 * API path, in or out of process) or an S3 presigned URL (absolute, fetched directly).
 */
export function sendToStorage(context: ConsoleContext, url: string, init: RequestInit) {
  if (/^https?:\/\//.test(url)) return fetch(url, init);
  return context.apiFetch(new Request(new URL(url, API_BASE), init));
}

/** An API answer read once: its status and JSON body (or a stand-in error body). */
interface ApiAnswer {
  status: number;
  ok: boolean;
  body: unknown;
  retryAfter: string | null;
}

/** A Retry-After of whole seconds (the API's own form); anything else is not passed on. */
const SECONDS = /^\d{1,6}$/;

async function readAnswer(response: Response): Promise<ApiAnswer> {
  const body = await response.json().catch(() => ({ message: `The API answered ${response.status}` }));
  const retryAfter = response.headers.get("retry-after");
  return {
    status: response.status,
    ok: response.ok,
    body,
    retryAfter: retryAfter && SECONDS.test(retryAfter) ? retryAfter : null,
  };
}

function parseAnswer<T>(answer: ApiAnswer, schema: ZodType<T>): T {
  if (!answer.ok) {
    const error = ErrorBody.safeParse(answer.body);
    throw new ApiError(
      answer.status,
      error.success ? error.data : { message: `The API answered ${answer.status}` },
      answer.retryAfter,
    );
  }
  return schema.parse(answer.body);
}

async function parse<T>(response: Response, schema: ZodType<T>): Promise<T> {
  return parseAnswer(await readAnswer(response), schema);
}

/** Not found and forbidden are the page's answer, not a crash: the route's error boundary shows them. */
function parseForPage<T>(answer: ApiAnswer, schema: ZodType<T>): T {
  try {
    return parseAnswer(answer, schema);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
      throw new Response(error.message, {
        status: error.status,
        statusText: asReasonPhrase(error.message) ?? error.statusText,
      });
    }
    throw error;
  }
}

/** The text as an HTTP reason phrase (tabs, spaces and visible Latin-1), or null when it cannot be one. */
function asReasonPhrase(text: string) {
  return /^[\t\x20-\x7e\x80-\xff]{1,200}$/.test(text) ? text : null;
}

/** Calls the API without a user (sign-in). */
export async function publicCall<T>(
  context: ConsoleContext,
  schema: ZodType<T>,
  method: string,
  path: string,
  options: CallOptions = {},
) {
  return parse(await send(context, method, path, options), schema);
}

/**
 * Refreshes in flight or just done, by the refresh token they used. The data requests of one
 * client navigation arrive together with the same cookie: the first rotates the tokens, and the
 * others, presenting the token it just spent, would trip the API's reuse detection and sign the
 * user out. So a refresh is remembered for a few seconds, but only for the browser that made it
 * (same address and user agent), and only the request that made it gets the new tokens in its
 * cookie: the others use the new user token for their own calls and are never handed the
 * refresh token. A copy of the cookie replayed from elsewhere presents a spent token to the API,
 * which revokes the sign-in.
 */
interface RememberedRefresh {
  /** The new pair; null when the API refused the refresh token; rejected when it could not answer. */
  tokens: Promise<TokenPair | null>;
  browser: string;
  madeBy: ConsoleContext;
}
const recentRefreshes = new Map<string, RememberedRefresh>();
const REFRESH_MEMORY_MS = 10_000;

const browserOf = (request: Request, context: ConsoleContext) =>
  `${context.clientAddress ?? ""} ${request.headers.get("user-agent") ?? ""}`;

/**
 * Whether a failed refresh ended the sign-in: the API refused the token (spent, revoked, expired,
 * unknown). A limit's 429, an outage's 503, a fault of the API's or no answer at all says nothing of
 * the token, which was not spent: the sign-in stands, and the same page a few seconds later refreshes it.
 */
const refreshRefused = (error: unknown) => error instanceof ApiError && error.status < 500 && error.status !== 429;

/**
 * The new tokens (null when the API refused the refresh token), and whether this request may write
 * them into its cookie. Throws when the API could not answer: nothing is remembered of that.
 */
async function refreshOnce(
  request: Request,
  context: ConsoleContext,
  refreshToken: string,
): Promise<{ tokens: TokenPair | null; owner: boolean }> {
  const browser = browserOf(request, context);
  const remembered = recentRefreshes.get(refreshToken);
  if (remembered && remembered.browser === browser)
    return { tokens: await remembered.tokens, owner: remembered.madeBy === context };
  const tokens = publicCall(context, TokenPair, "POST", "/v1/users/generate_access_token", {
    body: { refresh_token: refreshToken },
  }).catch((error: unknown) => {
    if (refreshRefused(error)) return null;
    throw error;
  });
  if (!remembered) {
    const entry = { tokens, browser, madeBy: context };
    recentRefreshes.set(refreshToken, entry);
    setTimeout(() => recentRefreshes.delete(refreshToken), REFRESH_MEMORY_MS).unref?.();
    // A refresh the API could not answer is tried again by the next request, not answered from here.
    tokens.catch(() => {
      if (recentRefreshes.get(refreshToken) === entry) recentRefreshes.delete(refreshToken);
    });
  }
  return { tokens: await tokens, owner: true };
}

/**
 * GET answers of one browser request. The loaders of one page each ask for what they need (the
 * root for the user and the client list, each client-scoped layout for the client list again):
 * with a request scope the API answers each distinct read once per page. Writes clear it.
 */
function readOncePerRequest(context: ConsoleContext, key: string, read: () => Promise<ApiAnswer>) {
  const reads = context.requestScope?.apiReads;
  if (!reads) return read();
  let answer = reads.get(key) as Promise<ApiAnswer> | undefined;
  if (!answer) {
    answer = read();
    reads.set(key, answer);
  }
  return answer;
}

function forgetRequestReads(context: ConsoleContext) {
  context.requestScope?.apiReads.clear();
}

export interface ApiClient {
  call<T>(schema: ZodType<T>, method: string, path: string, options?: CallOptions): Promise<T>;
  get<T>(schema: ZodType<T>, path: string, query?: Query): Promise<T>;
  post<T>(schema: ZodType<T>, path: string, body?: unknown): Promise<T>;
  put<T>(schema: ZodType<T>, path: string, body?: unknown): Promise<T>;
  session: ConsoleSession;
}

/**
 * The sign-in page, coming back here after. A change posted after the session ended is not saved,
 * and the sign-in page says so (`unsaved`) rather than the change vanishing without a word.
 */
export const loginRedirectUrl = (request: Request) => {
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  const params = new URLSearchParams(back === "/" ? {} : { redirectTo: back });
  if (request.method !== "GET" && request.method !== "HEAD") params.set(UNSAVED_PARAM, "1");
  return params.size ? `/login?${params}` : "/login";
};

export const UNSAVED_PARAM = "unsaved";

/**
 * The API client of one signed-in request. A 401 triggers one token refresh and one retry; the
 * new tokens are written back to the session cookie on whatever response the route returns. A
 * refresh the API refuses clears the session and sends the browser to the login screen; one it
 * cannot answer keeps the session: a limit's answers 429 with the limit's wait, an outage's 503.
 */
export async function requireApi(request: Request, context: ConsoleContext): Promise<ApiClient> {
  const session = await getSession(request, context);
  const signedOut = async () => {
    const headers = new Headers({ "Set-Cookie": await destroySession(session, context) });
    const kept = await keepUnsentPost(request, context, session.get("user")?.email);
    if (kept) headers.append("Set-Cookie", kept);
    return redirect(loginRedirectUrl(request), { headers });
  };
  if (!session.get("user_token") || !session.get("refresh_token")) {
    const bearer = backofficeBearer(request);
    if (bearer) return bearerClient(request, context, bearer, session);
    throw await signedOut();
  }

  const answerOf = async (method: string, path: string, options: CallOptions): Promise<ApiAnswer> => {
    const presented = session.get("refresh_token")!;
    let response = await send(context, method, path, options, session.get("user_token"));
    if (response.status === 401) {
      const { tokens, owner } = await refreshOnce(request, context, presented).catch(async (error: unknown) => {
        // The sign-in stands (its refresh token was not spent): the page is not drawn or the post not
        // saved just now, and what was posted is offered to send again. A limit's refusal is answered
        // as the limit it is (429, with its wait), anything else as an outage (503).
        if (error instanceof ApiError && error.status === 429)
          throw await interrupted(request, context, 429, error.retryAfter);
        const retryAfter = error instanceof ApiError ? error.retryAfter : null;
        throw await interrupted(request, context, 503, retryAfter);
      });
      if (!tokens) throw await signedOut();
      // Parallel calls of one request share the rotation; only the first writes the cookie.
      if (owner && session.get("refresh_token") !== tokens.refresh_token) {
        session.set("user_token", tokens.user_token);
        session.set("refresh_token", tokens.refresh_token);
        context.appendSetCookie(await commitSession(session, context));
      }
      response = await send(context, method, path, options, tokens.user_token);
      if (response.status === 401) throw await signedOut();
    }
    return readAnswer(response);
  };

  const answerOnce = async (method: string, path: string, options: CallOptions) => {
    if (method === "GET") {
      const key = `${session.get("user_token")} ${buildUrl(path, options.query).href}`;
      return readOncePerRequest(context, key, () => answerOf(method, path, options));
    }
    // A write may change what any read of this request saw, before it or while it ran.
    forgetRequestReads(context);
    try {
      return await answerOf(method, path, options);
    } finally {
      forgetRequestReads(context);
    }
  };

  const call = async <T>(schema: ZodType<T>, method: string, path: string, options: CallOptions = {}) => {
    const answer = await answerOnce(method, path, options);
    if (answer.status === 503) throw await interrupted(request, context, 503, answer.retryAfter);
    return parseForPage(answer, schema);
  };
  return clientOf(call, session);
}

type Call = ApiClient["call"];

function clientOf(call: Call, session: ConsoleSession): ApiClient {
  return {
    call,
    get: (schema, path, query) => call(schema, "GET", path, { query }),
    post: (schema, path, body) => call(schema, "POST", path, { body: body ?? {} }),
    put: (schema, path, body) => call(schema, "PUT", path, { body: body ?? {} }),
    session,
  };
}

/** Where a bearer token stands in for the session cookie: the back-office pages (`/backoffice/{url_code}/…`). */
const BACKOFFICE_PATH = /^\/backoffice\//;

/** The token of `Authorization: Bearer …` on a back-office page (what POST /generate_jwt_token hands out). */
function backofficeBearer(request: Request) {
  if (!BACKOFFICE_PATH.test(new URL(request.url).pathname)) return null;
  const match = /^Bearer\s+(\S{1,4096})$/i.exec(request.headers.get("authorization") ?? "");
  return match?.[1] ?? null;
}

/**
 * The API client of a back-office request that brought its own token instead of a session. It has
 * no refresh token: an expired token answers 401, and the caller asks /generate_jwt_token for a new
 * one and retries (the spec's queued retry).
 */
function bearerClient(request: Request, context: ConsoleContext, token: string, session: ConsoleSession): ApiClient {
  const call: Call = async (schema, method, path, options = {}) => {
    const response = await send(context, method, path, options, token);
    if (response.status === 401)
      throw json({ message: TOKEN_EXPIRED }, { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
    const answer = await readAnswer(response);
    if (answer.status === 503) throw await interrupted(request, context, 503, answer.retryAfter);
    return parseForPage(answer, schema);
  };
  return clientOf(call, session);
}

export const TOKEN_EXPIRED = "The token is not valid or has expired; ask /generate_jwt_token for a new one";
