import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { INSIGHT_ENVIRONMENTS, toCsv, type UserProfileDetail, type UserProfilesQuery } from "@contract";
import { DEFAULT_TABLE_PAGE_SIZE, TABLE_PAGE_SIZES } from "~/lib/table-view";
import { userCan } from "~/lib/permissions";
import { ApiError, shownInPlace } from "./api/client.server";
import { insightsApi } from "./api/insights-api.server";
import { getUserInfo } from "./api/users-api.server";
import { requireClient } from "./clients.server";
import { consoleContext } from "./context.server";
import { loadOrError, requireConfigure } from "./permissions.server";
import { redirectWithToast } from "./toast.server";
import { readForm } from "./http/form-data.server";
import { textOf } from "./http/form-fields.server";
import { lastPageInstead, readPageParam, readSearchParam } from "~/lib/query-params";
import { withClientTriggerPoint, triggerPointsOf } from "~/lib/trigger-points";

/*
 * The user profile store on the back-office host: /backoffice/{url_code}/user_profiles with its
 * search, filters and page in the address; `?profile=<id>` opens one profile with its
 * conversation, `&delete=1` asks before that person's data is deleted.
 */

export const PROFILE_NOT_FOUND = "Profile not found: it may have been deleted since the list was shown.";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function profileFilters(params: URLSearchParams): UserProfilesQuery & { page: number; page_size: number } {
  const environment = params.get("environment");
  const number = (name: string, fallback: number) => {
    const value = Number(params.get(name));
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  const size = number("page_size", DEFAULT_TABLE_PAGE_SIZE);
  return {
    search: readSearchParam(params.get("search"), 200) || undefined,
    trigger_point: params.get("triggerPoint") || undefined,
    environment: (INSIGHT_ENVIRONMENTS as readonly string[]).includes(environment ?? "")
      ? (environment as UserProfilesQuery["environment"])
      : "all",
    leads_only: params.get("leads_only") === "true" ? "true" : undefined,
    page: readPageParam(params.get("page")),
    page_size: (TABLE_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_TABLE_PAGE_SIZE,
  };
}

export async function userProfilesLoader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.urlCode);
  const url = new URL(request.url);
  const { filters: asked, triggerPointError } = withClientTriggerPoint(app, profileFilters(url.searchParams));
  const me = await getUserInfo(api);
  const profilesAt = (page: number) => loadOrError(() => insightsApi.profiles(api, app.id, { ...asked, page }));
  const read = await profilesAt(asked.page);
  // Past the end (the last page's last profile just deleted, or an old link): the last page, as the pager says.
  const lastPage = read.data
    ? lastPageInstead(asked.page, {
        totalCount: read.data.total,
        totalPages: Math.ceil(read.data.total / asked.page_size),
      })
    : null;
  const filters = lastPage === null ? asked : { ...asked, page: lastPage };
  const { data: list, error } = lastPage === null ? read : await profilesAt(lastPage);
  const profileId = url.searchParams.get("profile");
  let detail: UserProfileDetail | null = null;
  if (profileId && UUID.test(profileId)) {
    try {
      detail = await insightsApi.profile(api, app.id, profileId);
    } catch (failure) {
      // A profile deleted meanwhile (or never there) leaves the drawer closed, and the page says why.
      if (!(failure instanceof ApiError) && !(failure instanceof Response && failure.status === 404)) throw failure;
    }
  }
  // Whatever the reason, said alike: an id of another client's profile is not found either.
  const profileError = profileId && !detail ? PROFILE_NOT_FOUND : null;
  return json({
    client: {
      id: app.id,
      name: app.client_name,
      urlCode: app.url_code,
      triggerPoints: triggerPointsOf(app),
    },
    filters,
    list,
    error,
    triggerPointError,
    detail,
    profileError,
    confirmingDelete: Boolean(detail && url.searchParams.get("delete") === "1"),
    canDelete: userCan(me, "configure", app.id),
    exportMaxRows: PROFILE_EXPORT_MAX_ROWS,
  });
}

/** Deletes one person's data (after the question); a client user, who may only look, gets 403. */
export async function userProfilesAction({ request, context, params }: ActionFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.urlCode);
  await requireConfigure(api, app.id);
  const url = new URL(request.url);
  const form = await readForm(request);
  const id = textOf(form, "profile_id");
  url.searchParams.delete("profile");
  url.searchParams.delete("delete");
  const back = `${url.pathname}${url.search}`;
  if (form.get("intent") !== "delete" || !UUID.test(id))
    return redirectWithToast(back, { type: "error", description: "Unknown action" });
  try {
    const { message } = await insightsApi.deleteProfile(api, app.id, id);
    return redirectWithToast(back, { type: "success", description: message });
  } catch (failure) {
    if (shownInPlace(failure))
      return redirectWithToast(back, { type: "error", description: `Error: ${failure.message}` });
    if (failure instanceof Response && failure.status === 404)
      return redirectWithToast(back, { type: "error", description: "Error: Profile not found" });
    throw failure;
  }
}

/**
 * The most profiles one CSV holds: a hundred pages of a thousand. Past it the file holds the
 * newest ones and says so in its name, and the page says so by the button.
 */
export const PROFILE_EXPORT_MAX_ROWS = 100_000;
const PROFILE_EXPORT_PAGE_SIZE = 1000;

/** Every profile the filters find, as CSV: the model's fields, then score, why, and where it came from. */
export async function userProfilesCsv(
  { request, context, params }: LoaderFunctionArgs,
  limits = { pageSize: PROFILE_EXPORT_PAGE_SIZE, maxRows: PROFILE_EXPORT_MAX_ROWS },
) {
  const { api, app } = await requireClient(request, consoleContext(context), params.urlCode);
  const { filters } = withClientTriggerPoint(app, profileFilters(new URL(request.url).searchParams));
  const listQuery = { ...filters, page: 1, page_size: limits.pageSize };
  // Counted once, with the first page (the file's name says of how many). Then by keyset: each page
  // goes on after the last profile of the one before (next_after), so a profile captured or deleted
  // while the file is written neither repeats nor skips one, and no page recounts.
  const first = await insightsApi.profiles(api, app.id, listQuery);
  const rows = [...first.data];
  let after = first.next_after;
  while (after !== null && rows.length < limits.maxRows) {
    const { data, next_after } = await insightsApi.profiles(api, app.id, { ...listQuery, after });
    rows.push(...data);
    after = next_after;
  }
  rows.length = Math.min(rows.length, limits.maxRows);
  const fields = [...new Set([...first.fields, ...rows.flatMap((row) => Object.keys(row.values))])];
  const csv = toCsv([
    [...fields, "Lead", "Score", "Why", "Questions", "Trigger point", "Environment", "Started", "Profile id"],
    ...rows.map((row) => [
      ...fields.map((f) => row.values[f] ?? ""),
      row.lead ? "yes" : "no",
      row.score,
      row.reasons.join("; "),
      row.questions,
      row.trigger_point,
      row.environment,
      row.started_at,
      row.conversation_id,
    ]),
  ]);
  // A file cut at the limit says so where the operator sees it first, in its name (a profile
  // deleted while it is written makes it shorter than the total without the limit having cut it).
  const cut = first.total > limits.maxRows ? `-newest-${rows.length}-of-${first.total}` : "";
  const name = `${app.url_code}-user-profiles-${new Date().toISOString().slice(0, 10)}${cut}.csv`;
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
}
