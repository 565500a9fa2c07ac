import { countOf, MAX_CHANGE_LINES, type ChangeLine } from "@contract";

/*
 * URL work (api/knowledge/url-requests.ts): a request names addresses, or a page's refresh days
 * before and after. Nothing of it is a state that can be written back.
 */

const days = (value: unknown) => countOf(Number(value), "day");

/** A URL record's lines: each address it named, and how many more it did; or the refresh days, before and after. */
export function urlRequestLines(before: unknown, after: unknown): ChangeLine[] {
  const now = (after ?? {}) as Partial<{ urls: unknown[]; count: number; refresh_days: number }>;
  if (typeof now.refresh_days === "number") {
    const was = (before ?? {}) as { refresh_days?: number };
    return [{ text: `Refresh every: '${days(was.refresh_days)}' → '${days(now.refresh_days)}'` }];
  }
  // One line is left for the count of the rest, so that the list is never cut again after it.
  const listed = (Array.isArray(now.urls) ? now.urls.map(String) : []).slice(0, MAX_CHANGE_LINES - 1);
  const more = Math.max(0, Number(now.count ?? listed.length) - listed.length);
  return [
    ...listed.map((url) => ({ text: url })),
    ...(more ? [{ text: `… and ${more.toLocaleString("en-US")} more` }] : []),
  ];
}
