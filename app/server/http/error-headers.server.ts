import type { EntryContext } from "@remix-run/node";

/** What a refusal's headers tell the caller to do next: when to come back, and how to sign in. */
const SAID_AGAIN_ON_THE_PAGE = ["Retry-After", "WWW-Authenticate"];

/**
 * A loader or action that throws a refusal (a 401 with `WWW-Authenticate`, a 429 or 503 with
 * `Retry-After`) has it drawn as its route's error page. On a document request Remix keeps only the
 * refusal's status and cookies unless each route exports `headers`, so a script asking for a
 * back-office page with an expired bearer, or a browser told to wait, would not learn how. The
 * headers of the answer that failed (a route without data of its own) are copied onto the page.
 */
export function keepRefusalHeaders(status: number, headers: Headers, { staticHandlerContext }: EntryContext) {
  if (status < 400 || !staticHandlerContext.errors) return;
  const { matches, loaderData, loaderHeaders, actionData, actionHeaders } = staticHandlerContext;
  for (const { route } of matches) {
    const failed = [
      actionData?.[route.id] === undefined ? actionHeaders[route.id] : undefined,
      loaderData[route.id] === undefined ? loaderHeaders[route.id] : undefined,
    ];
    for (const answer of failed) {
      for (const name of SAID_AGAIN_ON_THE_PAGE) {
        const value = answer?.get(name);
        if (value && !headers.has(name)) headers.set(name, value);
      }
    }
  }
}
