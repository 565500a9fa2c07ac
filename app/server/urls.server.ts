import { json } from "@remix-run/node";
import type { UrlRow, UrlsList, Website } from "@contract";
import { formatInTimeZone, safeTimeZone, toCsv } from "~/lib/csv";
import { lastPageInstead } from "~/lib/query-params";
import {
  BULK_ACTIONS,
  BULK_DELETE_CONFIRMED,
  type BulkDeleteQuestion,
  EXPORT_LEFT_OUT_HEADER,
  EXPORT_ROW_LIMIT,
  exportFileName,
  isBulkAction,
  linkLines,
  linksAddedMessage,
  parseRefreshDays,
  readUrlView,
  REFRESH_DAYS_ERROR,
  toExportQuery,
  type UrlView,
  withoutRefusedDays,
  withRefusedDays,
} from "~/lib/urls";
import { ApiError, shownInPlace, type ApiClient } from "./api/client.server";
import { knowledgeApi } from "./api/knowledge-api.server";
import { invariantResponse } from "./clients.server";
import { requireConfigure } from "./permissions.server";
import { redirectWithToast, type ToastInput } from "./toast.server";
import { readForm } from "./http/form-data.server";
import { textOf } from "./http/form-fields.server";
import { isRowId } from "~/lib/ids";

export function parseWebsiteId(value: string | undefined) {
  const id = Number(value);
  invariantResponse(isRowId(id), "Website not found");
  return id;
}

/** One website of the client; the API lists them in pages, so we walk them until it turns up. */
export async function findWebsite(api: ApiClient, appId: number, websiteId: number): Promise<Website> {
  for (let page = 1; ; page += 1) {
    const list = await knowledgeApi.websites(api, appId, { page, page_size: 100 });
    const website = list.websites.find((candidate) => candidate.id === websiteId);
    if (website) return website;
    if (page >= list.total_pages || list.websites.length === 0) break;
  }
  invariantResponse(false, "Website not found");
}

/**
 * What an API refusal says: its field messages when it has any (clearer than its summary, such as
 * "Invalid request body"), else its message. `lineOf` names the Add Links box's line of the n-th
 * link sent (`urls.<n>`), as the operator sees it: blank lines counted.
 */
const messageOf = (error: unknown, lineOf: (index: number) => number = (index) => index + 1) => {
  if (error instanceof ApiError) {
    const byMessage = new Map<string, number[]>();
    const details: string[] = [];
    for (const [field, messages] of Object.entries(error.fieldErrors)) {
      const link = /^urls\.(\d+)$/.exec(field);
      if (!link) {
        details.push(field === "urls" ? messages.join(", ") : `${field}: ${messages.join(", ")}`);
        continue;
      }
      for (const message of messages) {
        const lines = byMessage.get(message) ?? [];
        if (!byMessage.has(message)) byMessage.set(message, lines);
        lines.push(lineOf(Number(link[1])));
      }
    }
    const lineDetails = [...byMessage].map(([message, lines]) => {
      const sorted = [...new Set(lines)].sort((a, b) => a - b);
      return `${sorted.length === 1 ? "Line" : "Lines"} ${sorted.join(", ")}: ${message}`;
    });
    const all = [...lineDetails, ...details];
    return all.length ? all.join("; ") : error.message;
  }
  if (error instanceof Response) return error.statusText || `Error ${error.status}`;
  return error instanceof Error ? error.message : String(error);
};

export interface AddLinksResult {
  intent: "add-links";
  error: string;
  text: string;
}

export interface RefreshDaysResult {
  intent: "refresh-days";
  ok: boolean;
  error?: string;
}

/**
 * The toast of a bulk action. URLs still being processed (sent for indexing, skipping or deletion)
 * are left as they are by the API: the toast says so, rather than a green "0 of 1" that reads as done.
 */
export function bulkOutcomeToast(updated: number, selected: number, status: string): ToastInput {
  const description = `${updated} of ${selected} URLs set to ${status}`;
  if (updated >= selected) return { type: "success", description };
  // The API does not say why (an id of no URL here is left alone too), so the toast names the usual cause.
  return {
    type: updated === 0 ? "error" : "info",
    description: `${description}. The rest were left as they are: a URL being processed (sent for indexing, skipping or deletion) changes once it has finished.`,
  };
}

/**
 * The URL drawers' form posts, one `intent` each: bulk actions, Add Links and refresh days.
 * `websiteId` is null in the unified drawer (bulk actions only). Answers a redirect back to the
 * view with a toast, or the Add Links form's error; a refresh-days save sent by JavaScript
 * (`_fetcher`) gets a plain answer instead of a redirect.
 */
export async function handleUrlsAction(options: {
  request: Request;
  api: ApiClient;
  appId: number;
  websiteId: number | null;
}) {
  const { request, api, appId, websiteId } = options;
  const form = await readForm(request);
  const back = new URL(request.url);
  const backSearch = withoutRefusedDays(back.searchParams).toString();
  const backTo = `${back.pathname}${backSearch ? `?${backSearch}` : ""}`;
  const intent = textOf(form, "intent");
  await requireConfigure(api, appId);

  switch (intent) {
    case "bulk": {
      const action = form.get("bulk");
      // Only a forged or stale form names another action: said in a toast, the view kept.
      if (!isBulkAction(action))
        return redirectWithToast(backTo, { type: "error", description: "Choose one of the bulk actions offered." });
      const { status, force } = BULK_ACTIONS[action];
      const ids = form.getAll("url_ids").map(Number).filter(isRowId);
      if (ids.length === 0)
        return redirectWithToast(backTo, { type: "error", description: "Select at least one URL first." });
      // Deleting removes the URLs' chunks for good: asked first, as the row menu's Delete URLs is.
      if (action === "delete" && form.get(BULK_DELETE_CONFIRMED) !== "yes")
        return json<BulkDeleteQuestion>({ intent: "confirm-bulk-delete", urlIds: ids });
      try {
        const body = { status, url_ids: ids, ...(force ? { force_index: true } : {}) };
        const result =
          websiteId === null
            ? await knowledgeApi.updateUrls(api, appId, body)
            : await knowledgeApi.updateWebsiteUrls(api, appId, websiteId, body);
        return redirectWithToast(backTo, bulkOutcomeToast(result.updated, ids.length, status));
      } catch (error) {
        const description =
          websiteId === null
            ? `Failed to update URLs to ${status}`
            : `Failed to update URLs to ${status}: ${messageOf(error)}`;
        return redirectWithToast(backTo, { type: "error", description });
      }
    }
    case "add-links": {
      if (websiteId === null) return json({ error: "Links are added to a website" }, { status: 400 });
      const text = textOf(form, "links");
      const lines = linkLines(text);
      // Nothing left after trimming: nothing happens.
      if (lines.length === 0) return redirectWithToast(backTo, { type: "info", description: "No links to add." });
      try {
        const result = await knowledgeApi.addUrls(
          api,
          appId,
          websiteId,
          lines.map(({ link }) => link),
        );
        if (result.message !== "Ok")
          return json<AddLinksResult>({ intent: "add-links", error: result.message, text }, { status: 400 });
        const added = result.created ?? lines.length;
        const existing = result.existing ?? 0;
        return redirectWithToast(backTo, {
          type: added === 0 ? "info" : "success",
          description: linksAddedMessage(added, existing),
        });
      } catch (error) {
        if (shownInPlace(error)) {
          const lineOf = (index: number) => lines[index]?.line ?? index + 1;
          return json<AddLinksResult>(
            { intent: "add-links", error: messageOf(error, lineOf), text },
            error.status === 503 ? error.answerInit : { status: 400 },
          );
        }
        throw error;
      }
    }
    case "refresh-days": {
      if (websiteId === null) return json({ error: "Refresh days belong to a website's URL" }, { status: 400 });
      const byScript = form.get("_fetcher") === "1";
      const urlId = Number(form.get("url_id"));
      const days = parseRefreshDays(form.get("refresh_days"));
      const answer = async (ok: boolean, description: string) => {
        if (byScript)
          return json<RefreshDaysResult>(
            { intent: "refresh-days", ok, ...(ok ? {} : { error: description }) },
            { status: ok ? 200 : 400 },
          );
        if (ok || !isRowId(urlId)) return redirectWithToast(backTo, { type: ok ? "success" : "error", description });
        // Without JavaScript the row shows again what was typed, beside the spec's toast.
        const refused = withRefusedDays(back.searchParams, { urlId, value: textOf(form, "refresh_days") });
        return redirectWithToast(`${back.pathname}?${refused}`, { type: "error", description });
      };
      if (!isRowId(urlId)) return answer(false, "Unknown URL");
      if (days === null) return answer(false, REFRESH_DAYS_ERROR);
      try {
        await knowledgeApi.setRefreshDays(api, appId, websiteId, urlId, days);
        return answer(true, `Refresh days set to ${days}`);
      } catch (error) {
        return answer(false, messageOf(error));
      }
    }
    default:
      return json({ error: `Unknown intent ${intent || "(none)"}` }, { status: 400 });
  }
}

/** The chunks of one URL, or the error text the drawer shows in its red box. */
export async function loadChunks(api: ApiClient, appId: number, websiteId: number, url: string) {
  try {
    const result = await knowledgeApi.cachedChunks(api, appId, websiteId, url);
    return { chunks: result.chunks, error: null };
  } catch (error) {
    if (error instanceof Response && error.status === 401) throw error;
    const text = error instanceof ApiError || error instanceof Response ? messageOf(error) : "";
    return { chunks: null, error: text || "Failed to fetch chunks" };
  }
}

const EXPORT_COLUMNS = [
  "url",
  "title",
  "status",
  "sitemap_refresh_review_status",
  "metadata",
  "indexed_at",
  "created_at",
  "updated_at",
] as const;

/** The CSV of a list of URLs, dates in the user's time zone (labelled); website_url in the unified export. */
export function urlsCsv(rows: UrlRow[], timeZone: string, unified: boolean) {
  const zone = safeTimeZone(timeZone);
  const header = [...EXPORT_COLUMNS, ...(unified ? ["website_url"] : [])];
  return toCsv([
    header,
    ...rows.map((row) => [
      row.url,
      row.title,
      row.status,
      row.sitemap_refresh_review_status ?? "",
      row.metadata,
      formatInTimeZone(row.indexed_at, zone),
      formatInTimeZone(row.created_at, zone),
      formatInTimeZone(row.updated_at, zone),
      ...(unified ? [row.website_url] : []),
    ]),
  ]);
}

/**
 * Said beside Export CSV before anyone exports: a plain download (no JavaScript) gets no toast, so a
 * view past the file's rows is told on the page. A capped count (a search past 2,000 matches) does
 * not tell whether the file holds every match, so it says nothing (the toast after a fetched export
 * still does). Worked out in the loaders, so it costs no JavaScript.
 */
export function exportCapNote(list: Pick<UrlsList, "total" | "total_is_capped">) {
  if (list.total_is_capped || list.total <= EXPORT_ROW_LIMIT) return null;
  const limit = EXPORT_ROW_LIMIT.toLocaleString("en");
  return `Export CSV holds the first ${limit} of these ${list.total.toLocaleString("en")} URLs; narrow the view to export the others.`;
}

/** The export resource routes' answer: up to 10000 rows with the view's filters, as a download. */
export async function exportUrls(options: {
  request: Request;
  pageSizes: readonly number[];
  site: string;
  unified: boolean;
  list: (
    view: ReturnType<typeof toExportQuery>,
  ) => Promise<{ data: UrlRow[]; total: number; total_is_capped: boolean }>;
}) {
  const params = new URL(options.request.url).searchParams;
  const view: UrlView = readUrlView(params, options.pageSizes);
  const { data, total, total_is_capped } = await options.list(toExportQuery(view));
  const body = urlsCsv(data, params.get("tz") ?? "UTC", options.unified);
  // Past the spec's 10,000 rows the file stops: the browser's toast says how many were left out.
  // A capped count (a search past 2,000 matches) says nothing of the rest: a full file may have left some out.
  const leftOut = total_is_capped
    ? data.length >= EXPORT_ROW_LIMIT
      ? "some"
      : "0"
    : String(Math.max(0, total - data.length));
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(options.site, new Date())}"`,
      "Cache-Control": "no-store",
      ...(leftOut !== "0" ? { [EXPORT_LEFT_OUT_HEADER]: leftOut } : {}),
    },
  });
}

/**
 * The page a URL view shows. Past the end (a bulk action moved its last rows out of the view's
 * statuses, or an old link), the last page, as the pager says, in place of an empty table. A capped
 * count (a search past 2,000 URLs) does not say where the end is, so that view is left as asked.
 */
export async function urlsPageShown(view: UrlView, list: UrlsList, listAt: (view: UrlView) => Promise<UrlsList>) {
  const lastPage = list.total_is_capped
    ? null
    : lastPageInstead(view.page, { totalCount: list.total_count, totalPages: list.total_pages }, 0);
  if (lastPage === null) return { view, list };
  const last: UrlView = { ...view, page: lastPage };
  return { view: last, list: await listAt(last) };
}
