import type { ShouldRevalidateFunction } from "@remix-run/react";

/**
 * An action's status when the API could not take its post just now: its 503, or a limit's 429 (one
 * that refused to renew the sign-in, or a form's own). Nothing was saved, so nothing changed.
 */
const notTaken = (actionStatus: number | undefined) => actionStatus === 503 || actionStatus === 429;

/**
 * A route's `shouldRevalidate` for a loader that reads only part of the address: `dataKey` says
 * which part. Remix re-runs every loader of the page whenever the address's search changes (a
 * list's next page, a filter, a drawer's own parameters such as a chunks drawer's `url` or font
 * size), so each layout above asked the API again for the user, the client list and the client
 * it already shows: opening a URL's chunks cost five requests where one was needed.
 *
 * A GET navigation to another address with the same key keeps the loader's data, and so does a post
 * the API could not take (`keepDataAfterUnavailable`). Everything else loads as Remix decides: a
 * post and its redirect (where toasts come from: no loader sets one), a change of key, and a refresh
 * of the address shown (`revalidate()`, as polling does, or a link to the page itself) unless
 * `onRefresh` is "keep".
 */
export function keepDataWhileSame(
  dataKey: (url: URL) => string,
  { onRefresh = "load" }: { onRefresh?: "load" | "keep" } = {},
): ShouldRevalidateFunction {
  return ({ currentUrl, nextUrl, formMethod, actionStatus, defaultShouldRevalidate }) => {
    if (formMethod && formMethod !== "GET") return notTaken(actionStatus) ? false : defaultShouldRevalidate;
    if (onRefresh === "load" && currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
    return dataKey(currentUrl) === dataKey(nextUrl) ? false : defaultShouldRevalidate;
  };
}

/**
 * The `shouldRevalidate` of a route with no other reason to keep its data: after a post the API
 * could not take (the action's 503 or 429: nothing was saved, its data out of reach just now), the page
 * keeps the data it shows. Read again, it would fail as the post did, and the error screen would
 * take the place of the form and of what was typed in it; kept, the form says it was not saved,
 * with everything typed, to send again. Every route with a loader uses it or `keepDataWhileSame`,
 * which does the same (app/routes/revalidation.test.ts).
 */
export const keepDataAfterUnavailable: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  notTaken(actionStatus) ? false : defaultShouldRevalidate;

/**
 * A layout's `shouldRevalidate`: its loader reads the session and the address's first `segments`
 * path segments, nothing a refresh of the page changes. Polling (every 2 s while a site is
 * indexed) asks for the page's own data, not the shell's user, client list, client and agent.
 */
export const keepLayoutData = (segments: number) => keepDataWhileSame(leadingSegments(segments), { onRefresh: "keep" });

/** The address's first `count` path segments: what a layout's loader reads of it (`/northfield/agent/admissions`). */
export const leadingSegments =
  (count: number) =>
  ({ pathname }: URL) =>
    pathname
      .split("/")
      .slice(0, count + 1)
      .join("/");

/**
 * The address without the named search parameters (sorted), its path read through `path`: a
 * list's key when a drawer over it adds parameters of its own.
 */
export const addressWithout =
  (ignored: readonly string[], path: (pathname: string) => string = (pathname) => pathname) =>
  (url: URL) => {
    const params = new URLSearchParams(url.search);
    for (const name of ignored) params.delete(name);
    params.sort();
    return `${path(url.pathname)}?${params}`;
  };
