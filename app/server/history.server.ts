import { CHANGE_KINDS, cutText, MAX_ID, type ChangeKind } from "@contract";
import { diffJson } from "~/lib/json-diff";
import { userCan } from "~/lib/permissions";
import { ApiError } from "./api/client.server";
import { historyApi } from "./api/history-api.server";
import { getUserInfo, usersApi } from "./api/resources.server";
import { requireClient } from "./clients.server";
import type { ConsoleContext } from "./context.server";
import { readForm } from "./http/form-data.server";
import { loadOrError, requireConfigure } from "./permissions.server";
import { redirectWithToast } from "./toast.server";

export const HISTORY_PAGE_SIZE = 25;
/** A change shows at most this many fields; a data model created whole lists far more than anyone reads. */
const MAX_FIELDS_SHOWN = 200;
/** A value longer than this (a long personality) is cut where it is shown. */
const MAX_VALUE_SHOWN = 10_000;

/** The filters of the address: `kind`, `user` (an email) and `page`, as the API takes them (an empty one is no filter). */
function filtersOf(url: URL) {
  const params = url.searchParams;
  return { kind: params.get("kind") ?? "", user: (params.get("user") ?? "").trim(), page: params.get("page") ?? "" };
}

/**
 * The History screen's data: one page of changes, each with its per-field diff worked out here (the
 * states themselves can be whole tables, and the page only shows what differs), the people to
 * filter by, and whether this caller may restore.
 */
export async function loadHistory(request: Request, context: ConsoleContext, urlCode: string | undefined) {
  const { api, app } = await requireClient(request, context, urlCode);
  const filters = filtersOf(new URL(request.url));
  const [me, members, listed] = await Promise.all([
    getUserInfo(api),
    usersApi.listForApp(api, app.id),
    // A filter the API refuses (an unknown kind, a page past the last) is said on the page, beside the filters to fix it.
    loadOrError(() => historyApi.list(api, app.id, {
      kind: (filters.kind || undefined) as ChangeKind | undefined, user: filters.user || undefined, page: filters.page || undefined, page_size: HISTORY_PAGE_SIZE,
    })),
  ]);
  const changes = (listed.data?.data ?? []).map(({ before, after, ...change }) => {
    const fields = diffJson(before, after);
    const cut = (value: string | null) => (value === null ? null : cutText(value, MAX_VALUE_SHOWN));
    return {
      ...change,
      fields: fields.slice(0, MAX_FIELDS_SHOWN).map((field) => ({ ...field, before: cut(field.before), after: cut(field.after) })),
      moreFields: Math.max(0, fields.length - MAX_FIELDS_SHOWN),
    };
  });
  const total = listed.data?.total ?? 0;
  const totalIsCapped = listed.data?.total_is_capped ?? false;
  const page = Math.max(1, Number.parseInt(filters.page, 10) || 1);
  const countedPages = Math.max(1, Math.ceil(total / HISTORY_PAGE_SIZE));
  return {
    client: { id: app.id, name: app.client_name },
    filters: { kind: filters.kind, user: filters.user },
    kinds: CHANGE_KINDS,
    people: [...new Set([...members.users.map((u) => u.email), ...changes.map((c) => c.user_email)])].sort(),
    changes,
    total,
    page,
    totalIsCapped,
    // Past the counted changes the pages go on while they are full.
    totalPages: totalIsCapped ? Math.max(countedPages, page + (changes.length === HISTORY_PAGE_SIZE ? 1 : 0)) : countedPages,
    error: listed.error,
    canRestore: userCan(me, "configure", app.id),
  };
}

/**
 * "Restore this state": read-only users get 403 before anything is read. The answer goes back to
 * the same page and filters with a toast, the API's refusal included (a kind that cannot be restored).
 */
export async function restoreFromHistory(request: Request, context: ConsoleContext, urlCode: string | undefined) {
  const { api, app } = await requireClient(request, context, urlCode);
  await requireConfigure(api, app.id);
  const form = await readForm(request);
  if (form.get("intent") !== "restore") throw new Response("This form asks for something the History screen does not do.", { status: 400 });
  const id = Number(form.get("id"));
  if (!Number.isInteger(id) || id < 1 || id > MAX_ID) throw new Response("Choose a change to restore.", { status: 400 });
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  try {
    const { message } = await historyApi.restore(api, app.id, id);
    return redirectWithToast(back, { type: "success", description: message });
  } catch (error) {
    if (error instanceof ApiError) return redirectWithToast(back, { type: "error", description: error.message });
    throw error;
  }
}
