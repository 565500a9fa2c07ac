import { CHANGE_KINDS, MAX_ID, type ChangeKind, type RestoreState } from "@contract";
import { laterChangesOn, type LaterChanges } from "~/lib/history";
import { userCan } from "~/lib/permissions";
import { readPageParam, readSearchParam } from "~/lib/query-params";
import { readTableView } from "~/lib/table-view";
import { ApiError } from "./api/client.server";
import { historyApi } from "./api/history-api.server";
import { getUserInfo, usersApi } from "./api/users-api.server";
import { requireClient } from "./clients.server";
import type { ConsoleContext } from "./context.server";
import { readForm } from "./http/form-data.server";
import { pageShown } from "./list-page.server";
import { loadOrError, requireConfigure } from "./permissions.server";
import { redirectWithToast } from "./toast.server";

/** The longest email address the Person filter takes (the API's own limit). */
const MAX_PERSON_CHARS = 320;

/**
 * The filters of the address, read as the other lists read theirs: `kind` (one of the screen's
 * kinds, else refused beside its filter), `user` (an email, control characters as spaces, at most
 * the API's length), `page` (a plain number, else the first; past the end, the last) and
 * `page_size`, one of every table's sizes (10 unless asked, spec section 9).
 */
function filtersOf(url: URL) {
  const params = url.searchParams;
  const kind = params.get("kind") ?? "";
  return {
    kind,
    kindRefused: kind !== "" && !(CHANGE_KINDS as readonly string[]).includes(kind),
    user: readSearchParam(params.get("user"), MAX_PERSON_CHARS),
    page: readPageParam(params.get("page")),
    pageSize: readTableView(params, []).pageSize,
  };
}

export const UNKNOWN_KIND_MESSAGE = "Choose a kind from the list";

/**
 * The question before a revert or restore that undoes later changes too (`?confirm=revert-12`): the
 * intent and the change of this page it is about, or null.
 */
function confirmingOf<Change extends { id: number } & LaterChanges>(url: URL, changes: Change[]) {
  const match = /^(revert|restore)-(\d{1,12})$/.exec(url.searchParams.get("confirm") ?? "");
  const change = match ? changes.find((c) => c.id === Number(match[2])) : undefined;
  const intent = match?.[1] as "revert" | "restore" | undefined;
  return intent && change && laterChangesOn(intent, change) > 0 ? { intent, change } : null;
}

/**
 * The History screen's data: one page of changes, each with the readable lines the API words (the
 * states themselves can be whole tables, and the page only shows what differs, so they stay
 * here), the people to filter by, and whether this caller may restore and revert.
 */
export async function loadHistory(request: Request, context: ConsoleContext, urlCode: string | undefined) {
  const { api, app } = await requireClient(request, context, urlCode);
  const filters = filtersOf(new URL(request.url));
  const listAt = (page: number) =>
    loadOrError(() =>
      historyApi.list(api, app.id, {
        kind: (filters.kind || undefined) as ChangeKind | undefined,
        user: filters.user || undefined,
        page,
        page_size: filters.pageSize,
      }),
    );
  // A kind the screen does not offer is said beside its filter, and nothing is listed.
  const refused = { data: null, error: null };
  const [me, members, asked] = await Promise.all([
    getUserInfo(api),
    usersApi.listForApp(api, app.id),
    filters.kindRefused ? refused : listAt(filters.page),
  ]);
  const { listed, page } = await pageShown(filters.page, filters.pageSize, asked, listAt);
  const changes = (listed.data?.data ?? []).map(({ before: _before, after: _after, ...change }) => change);
  const confirming = confirmingOf(new URL(request.url), changes);
  const total = listed.data?.total ?? 0;
  const totalIsCapped = listed.data?.total_is_capped ?? false;
  const countedPages = Math.max(1, Math.ceil(total / filters.pageSize));
  return {
    client: { id: app.id, name: app.client_name },
    filters: { kind: filters.kind, user: filters.user, pageSize: filters.pageSize },
    kindError: filters.kindRefused ? UNKNOWN_KIND_MESSAGE : null,
    kinds: CHANGE_KINDS,
    people: [...new Set([...members.users.map((u) => u.email), ...changes.map((c) => c.user_email)])].sort(),
    changes,
    confirming,
    total,
    page,
    totalIsCapped,
    // Past the counted changes the pages go on while they are full.
    totalPages: totalIsCapped
      ? Math.max(countedPages, page + (changes.length === filters.pageSize ? 1 : 0))
      : countedPages,
    error: listed.error,
    canRestore: userCan(me, "configure", app.id),
  };
}

/** The form's intents: "Restore this state" writes back what a change led to, "Revert this change" what it replaced. */
const STATE_OF_INTENT = new Map<string, RestoreState>([
  ["restore", "after"],
  ["revert", "before"],
]);

/**
 * "Restore this state" and "Revert this change": read-only users get 403 before anything is read.
 * The answer goes back to the same page and filters with a toast, the API's refusal included (a
 * kind that cannot be restored).
 */
export async function restoreFromHistory(request: Request, context: ConsoleContext, urlCode: string | undefined) {
  const { api, app } = await requireClient(request, context, urlCode);
  await requireConfigure(api, app.id);
  const form = await readForm(request);
  const state = STATE_OF_INTENT.get(String(form.get("intent")));
  if (!state) throw new Response("This form asks for something the History screen does not do.", { status: 400 });
  const id = Number(form.get("id"));
  if (!Number.isInteger(id) || id < 1 || id > MAX_ID) {
    throw new Response(`Choose a change to ${state === "after" ? "restore" : "revert"}.`, { status: 400 });
  }
  const url = new URL(request.url);
  // Back to the page and filters, without the question asked before.
  url.searchParams.delete("confirm");
  const back = `${url.pathname}${url.search}`;
  try {
    // The later changes the page showed for this intent (0 on a button that did not ask): more now, and the API refuses.
    const shown = Number(form.get("later_changes"));
    const laterChanges = form.has("later_changes") && Number.isInteger(shown) && shown >= 0 ? shown : undefined;
    const { message } = await historyApi.restore(api, app.id, id, state, laterChanges);
    return redirectWithToast(back, { type: "success", description: message });
  } catch (error) {
    if (error instanceof ApiError) return redirectWithToast(back, { type: "error", description: error.reason });
    throw error;
  }
}
