import { countOf, DEFAULT_REFRESH_DAYS } from "@contract";
import { recordRequest, type Author } from "../history/record";
import type { ApiDeps } from "../deps";

/*
 * What History records of the work asked of a website's URLs: who asked for pages to be indexed,
 * skipped or deleted, added pages by hand or changed a page's refresh days, and which pages. The
 * pipeline carries the request out; there is no earlier state to write back, so these changes are
 * listed, never restored.
 */

/** The addresses a record keeps: its lines list them, and count the rest. */
export const LISTED_ADDRESSES = 100;

const REQUESTED: Record<string, string> = {
  to_be_indexed: "to be indexed",
  to_be_skipped: "to be skipped",
  to_be_deleted: "to be deleted",
};

/** What a request of URLs recorded: the addresses (at most LISTED_ADDRESSES) and how many in all. */
interface RecordedUrls {
  status?: string;
  force_index?: boolean;
  urls: string[];
  count: number;
}

/** Where the request was made: one website's URLs, or URLs of any of the client's websites (the drawer). */
const where = (website: { url: string } | null) => (website ? `URLs of ${website.url}` : "URLs");

/** URLs asked to be indexed (again, `force`: unchanged pages too), skipped or deleted. */
export async function recordStatusRequest(
  deps: Pick<ApiDeps, "db">,
  author: Author,
  request: { appId: number; website: { id: number; url: string } | null; status: string; force: boolean },
  addresses: string[],
) {
  if (!addresses.length) return;
  const what = `${REQUESTED[request.status] ?? request.status}${request.force ? " again, unchanged pages too" : ""}`;
  const after: RecordedUrls = {
    status: request.status,
    ...(request.force ? { force_index: true } : {}),
    urls: addresses.slice(0, LISTED_ADDRESSES),
    count: addresses.length,
  };
  await recordRequest(deps, author, {
    appId: request.appId,
    kind: "urls",
    target: request.website ? String(request.website.id) : "",
    summary: `${where(request.website)}: ${countOf(addresses.length, "URL")} ${what}`,
    after,
  });
}

/** Pages added to a website by hand. */
export async function recordUrlsAdded(
  deps: Pick<ApiDeps, "db">,
  author: Author,
  website: { id: number; appId: number; url: string },
  addresses: string[],
) {
  if (!addresses.length) return;
  const after: RecordedUrls = { urls: addresses.slice(0, LISTED_ADDRESSES), count: addresses.length };
  await recordRequest(deps, author, {
    appId: website.appId,
    kind: "urls",
    target: String(website.id),
    summary: `${where(website)}: ${countOf(addresses.length, "URL")} added`,
    after,
  });
}

/** A page's refresh days changed. */
export async function recordRefreshDays(
  deps: Pick<ApiDeps, "db">,
  author: Author,
  website: { id: number; appId: number },
  page: { url: string; before: number | null; after: number | null },
) {
  // No days of its own: the default.
  const before = page.before ?? DEFAULT_REFRESH_DAYS;
  const after = page.after ?? DEFAULT_REFRESH_DAYS;
  if (before === after) return;
  await recordRequest(deps, author, {
    appId: website.appId,
    kind: "urls",
    target: String(website.id),
    summary: `URL ${page.url}: refreshed every ${countOf(after, "day")}`,
    before: { url: page.url, refresh_days: before },
    after: { url: page.url, refresh_days: after },
  });
}
