import { STATUS_CODES } from "node:http";
import type { EntryContext } from "@remix-run/node";
import { NOT_SAVED_JUST_NOW, type Resend } from "~/lib/messages";
import type { ConsoleContext } from "../context.server";

const escaped = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The answer to a post the API could not take just now (its 503) when the page it came from cannot
 * be drawn either, its own reads failing too (a database away for a while, not a moment): the post's
 * fields in a form that sends them again where they went, so nothing typed is lost, without
 * JavaScript. A plain page with no script (nothing to hydrate): the page's error screen, drawn by
 * React, would need code in every page's JavaScript for a page only a browser without it gets, since
 * with it a post that fails leaves the page in place or shows its error screen.
 */
export function resendPage(resend: Resend, message = NOT_SAVED_JUST_NOW) {
  const fields = resend.fields
    .map(([name, value]) => `<input type="hidden" name="${escaped(name)}" value="${escaped(value)}">`)
    .join("");
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>Not saved yet</title></head>` +
    `<body><main><p role="alert">${escaped(message)}</p>` +
    `<form method="post" action="${escaped(resend.to)}">${fields}<button type="submit">Try again</button></form>` +
    `<p><a href="${escaped(resend.to.split("?")[0])}">Leave it and go back to the page</a></p></main></body></html>`
  );
}

/** How a post the API could not take was answered: 503 (an outage), or 429 (a limit refused to renew the sign-in). */
export const interruptionOf = (context: Pick<ConsoleContext, "requestScope">) =>
  context.requestScope?.interruptedAs ?? { status: 503 as const, message: NOT_SAVED_JUST_NOW };

/** The post to offer again when a document request is answered with an error screen under its 503 or 429 after one. */
export function postToOfferAgain(
  request: Request,
  statusCode: number,
  remixContext: Pick<EntryContext, "staticHandlerContext">,
  context: Pick<ConsoleContext, "requestScope">,
): Resend | null {
  if (request.method !== "POST" || statusCode !== interruptionOf(context).status) return null;
  if (!remixContext.staticHandlerContext.errors) return null;
  return context.requestScope?.interruptedPost ?? null;
}

/**
 * The answer to a client-side post (a data request) the API could not take, said as a 503 (or the
 * limit's 429) whatever status the action gave its form's answer. The page's routes keep their data
 * after an action answered so (`keepDataAfterUnavailable`, app/lib/revalidation.ts): reading it again
 * would fail as the post did and put the error screen in place of the form, and of what was typed
 * in it. Redirects and errors are left as they are.
 */
export function unsavedPostAnswer(
  response: Response,
  request: Request,
  context: Pick<ConsoleContext, "requestScope">,
): Response {
  const scope = context.requestScope;
  if (request.method === "GET" || scope?.interruptedPost === undefined) return response;
  const { status } = response;
  // The action's own answer: its form's data, not a redirect, nor an error a route's screen shows.
  const formAnswer =
    (status >= 200 && status < 300 && status !== 204) || (status >= 400 && status < 500) || status === 503;
  const redirectOrError = ["X-Remix-Redirect", "X-Remix-Error", "X-Remix-Catch"].some((name) =>
    response.headers.has(name),
  );
  if (!formAnswer || redirectOrError) return response;
  const headers = new Headers(response.headers);
  if (!headers.has("Retry-After") && scope.interruptedRetryAfter)
    headers.set("Retry-After", scope.interruptedRetryAfter);
  const { status: said } = interruptionOf(context);
  return new Response(response.body, { status: said, statusText: STATUS_CODES[said], headers });
}
