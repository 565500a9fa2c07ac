import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useHref, useLoaderData, useLocation } from "@remix-run/react";
import { DEFAULT_REFRESH_DAYS } from "@contract/values/knowledge";
import { Drawer } from "~/components/Drawer";
import { RouteError } from "~/components/RouteError";
import { ExportLink } from "~/components/urls/ExportLink";
import { useClientToast } from "~/components/urls/params";
import { UrlSearch } from "~/components/urls/UrlFilters";
import { UrlsPager } from "~/components/urls/UrlsPager";
import { UrlsTable } from "~/components/urls/UrlsTable";
import { usePolling } from "~/components/usePolling";
import * as s from "~/components/urls/urls.css";
import {
  DEFAULT_URL_PAGE_SIZE,
  filteredCountText,
  isFiltered,
  isInFlight,
  readUrlView,
  toApiQuery,
  UNIFIED_PAGE_SIZES,
  viewToParams,
  type UrlView,
} from "~/lib/urls";
import { knowledgeApi } from "~/server/api/knowledge-api.server";
import { requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import { exportCapNote, handleUrlsAction, urlsPageShown } from "~/server/urls.server";
import { useCanConfigure } from "~/lib/user";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** The unified URL drawer: every URL of the client, or of the statuses in `?status=`. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const view = readUrlView(new URL(request.url).searchParams, UNIFIED_PAGE_SIZES);
  const listAt = (shown: UrlView) => knowledgeApi.allUrls(api, app.id, toApiQuery(shown));
  const shown = await urlsPageShown(view, await listAt(view), listAt);
  return json({ appId: app.id, view: shown.view, list: shown.list, exportNote: exportCapNote(shown.list) });
}

/** Bulk actions only; a refusal says 'Failed to update URLs to {status}'. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  return handleUrlsAction({ request, api, appId: app.id, websiteId: null });
}

export default function UnifiedUrlsDrawer() {
  const { appId, view, list, exportNote } = useLoaderData<typeof loader>();
  const canConfigure = useCanConfigure(appId);
  const location = useLocation();
  const { show } = useClientToast();
  usePolling(list.data.some((row) => isInFlight(row.status)));
  const params = viewToParams(view, DEFAULT_URL_PAGE_SIZE);
  const exportHref = useHref(`export?${params}`);
  const title = view.statuses.length === 1 ? `${view.statuses[0]} URLs` : "All URLs";
  // Back to the list as it was left: its search, page and page size travel in the view's `list`.
  const closeTo = `${location.pathname.replace(/\/urls\/?$/, "")}${view.list ? `?${view.list}` : ""}`;
  // The status scope is the drawer's subject, not a filter; only a search narrows it.
  const searched = isFiltered({ ...view, statuses: [] });
  return (
    <Drawer title={title} size="wide" closeTo={closeTo}>
      <div className={s.toolbar}>
        <UrlSearch view={view} asYouType />
        <span className={s.grow} />
        <ExportLink href={exportHref} onToast={show} />
      </div>
      <p className={s.summary}>
        <span>
          Total URLs{" "}
          <span className={s.summaryValue}>
            {list.total}
            {list.total_is_capped ? "+" : ""}
          </span>
        </span>
      </p>
      {searched ? (
        <p className={s.filtered} role="status">
          {filteredCountText(list.total, list.total_is_capped)}
        </p>
      ) : null}
      {exportNote ? <p className={s.exportNote}>{exportNote}</p> : null}
      <UrlsTable
        rows={list.data}
        view={view}
        defaultPageSize={DEFAULT_URL_PAGE_SIZE}
        canConfigure={canConfigure}
        defaultRefreshDays={list.default_refresh_day || DEFAULT_REFRESH_DAYS}
        showWebsite
        showRefreshDays={false}
        emptyText="No URLs found"
        onToast={show}
      />
      <UrlsPager
        view={view}
        totalPages={list.total_pages}
        capped={list.total_is_capped}
        rowsShown={list.count}
        pageSizes={UNIFIED_PAGE_SIZES}
        defaultPageSize={DEFAULT_URL_PAGE_SIZE}
      />
    </Drawer>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `${data.view.statuses.length === 1 ? `${data.view.statuses[0]} URLs` : "All URLs"} · Assistant Console`
      : "URLs · Assistant Console",
  },
];

export function ErrorBoundary() {
  return <RouteError />;
}
