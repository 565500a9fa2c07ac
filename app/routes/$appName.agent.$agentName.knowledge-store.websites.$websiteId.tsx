import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { titleMeta } from "~/lib/page-title";
import { Outlet, useActionData, useHref, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { DEFAULT_REFRESH_DAYS } from "@contract/values/knowledge";
import { Drawer } from "~/components/Drawer";
import { RouteError } from "~/components/RouteError";
import { AddLinks } from "~/components/urls/AddLinks";
import { ExportLink } from "~/components/urls/ExportLink";
import { useClientToast } from "~/components/urls/params";
import { FilterMenu, UrlSearch } from "~/components/urls/UrlFilters";
import { UrlsPager } from "~/components/urls/UrlsPager";
import { UrlsTable } from "~/components/urls/UrlsTable";
import { usePolling } from "~/components/usePolling";
import * as s from "~/components/urls/urls.css";
import { formatDateTimeUtc } from "~/lib/dates";
import { addressWithout, keepDataWhileSame } from "~/lib/revalidation";
import {
  DEFAULT_URL_PAGE_SIZE,
  filteredCountText,
  isFiltered,
  isInFlight,
  readUrlView,
  refusedDaysOf,
  toApiQuery,
  viewToParams,
  WEBSITE_PAGE_SIZES,
  type UrlView,
} from "~/lib/urls";
import { knowledgeApi } from "~/server/api/knowledge-api.server";
import { requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import {
  exportCapNote,
  findWebsite,
  handleUrlsAction,
  parseWebsiteId,
  urlsPageShown,
  type AddLinksResult,
} from "~/server/urls.server";
import { useCanConfigure } from "~/lib/user";

/** The view-links drawer: one website's URLs, with the whole view (filters, sort, page) in the address. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const websiteId = parseWebsiteId(params.websiteId);
  const { pathname, searchParams } = new URL(request.url);
  const view = readUrlView(viewParamsOf(pathname, searchParams), WEBSITE_PAGE_SIZES);
  const listAt = (shown: UrlView) => knowledgeApi.websiteUrls(api, app.id, websiteId, toApiQuery(shown));
  const [website, asked] = await Promise.all([findWebsite(api, app.id, websiteId), listAt(view)]);
  const shown = await urlsPageShown(view, asked, listAt);
  const refusedDays = refusedDaysOf(searchParams);
  return json({
    appId: app.id,
    website,
    view: shown.view,
    list: shown.list,
    refusedDays,
    exportNote: exportCapNote(shown.list),
  });
}

/**
 * Under the chunks drawer `url` names the page whose chunks are open, not this view's filter: read
 * as one, the list behind the drawer (on a reload, without JavaScript, or polled) showed that page alone.
 */
function viewParamsOf(pathname: string, searchParams: URLSearchParams) {
  if (!/\/chunks\/?$/.test(pathname)) return searchParams;
  const params = new URLSearchParams(searchParams);
  params.delete("url");
  return params;
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  return handleUrlsAction({ request, api, appId: app.id, websiteId: parseWebsiteId(params.websiteId) });
}

export default function WebsiteLinksDrawer() {
  const { appId, website, view, list, refusedDays, exportNote } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>() as Partial<AddLinksResult> | undefined;
  const canConfigure = useCanConfigure(appId);
  const location = useLocation();
  const { show } = useClientToast();
  usePolling(list.data.some((row) => isInFlight(row.status)));

  const params = viewToParams(view, DEFAULT_URL_PAGE_SIZE);
  // Back to the list as it was left: its search, page and page size travel in the view's `list`.
  const closeTo = `${location.pathname.replace(/\/websites\/[^/]+(\/.*)?$/, "/websites")}${view.list ? `?${view.list}` : ""}`;
  const chunksHref = (url: string) => {
    const next = new URLSearchParams(params);
    next.set("url", url);
    return `chunks?${next}`;
  };
  const exportHref = useHref(`export?${params}`);
  return (
    <Drawer title={website.url} size="wide" closeTo={closeTo}>
      <dl className={s.summary}>
        <div>
          <dt>Website</dt>
          <dd className={s.summaryValue}>{website.url}</dd>
        </div>
        <div>
          <dt>Total URLs</dt>
          <dd className={s.summaryValue} data-testid="total-urls">
            {website.urls_count}
          </dd>
        </div>
        <div>
          <dt>Last updated</dt>
          <dd className={s.summaryValue}>{formatDateTimeUtc(website.updated_at)}</dd>
        </div>
      </dl>
      <div className={s.toolbar}>
        <UrlSearch view={view} />
        <FilterMenu view={view} defaultPageSize={DEFAULT_URL_PAGE_SIZE} />
        <span className={s.grow} />
        {canConfigure ? (
          <AddLinks
            error={posted?.intent === "add-links" ? (posted.error ?? null) : null}
            postedText={posted?.text ?? ""}
          />
        ) : null}
        <ExportLink href={exportHref} onToast={show} />
      </div>
      {isFiltered(view) ? (
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
        showWebsite={false}
        showRefreshDays
        chunksHref={(row) => chunksHref(row.url)}
        emptyText="Nothing To Display"
        onToast={show}
        refusedDays={refusedDays}
      />
      <UrlsPager
        view={view}
        totalPages={list.total_pages}
        capped={list.total_is_capped}
        rowsShown={list.count}
        pageSizes={WEBSITE_PAGE_SIZES}
        defaultPageSize={DEFAULT_URL_PAGE_SIZE}
      />
      <Outlet />
      <ChunksOnTheirWay closeTo={location.pathname + location.search} />
    </Drawer>
  );
}

/** With JavaScript, the chunks drawer opens at once with a spinner while its loader runs. */
function ChunksOnTheirWay({ closeTo }: { closeTo: string }) {
  const navigation = useNavigation();
  const location = useLocation();
  const target = navigation.state === "loading" ? navigation.location : null;
  if (!target || !/\/chunks\/?$/.test(target.pathname) || /\/chunks\/?$/.test(location.pathname)) return null;
  const url = new URLSearchParams(target.search).get("url") ?? "";
  return (
    <Drawer title={`Chunks for URL ${url}`} size="medium" closeTo={closeTo}>
      <div role="status" aria-label="Loading chunks" className={s.spinner} />
    </Drawer>
  );
}

/** Opening, closing or restyling the chunks drawer leaves this view's data as it is. */
export const shouldRevalidate = keepDataWhileSame(
  addressWithout(["url", "font", "theme"], (pathname) => pathname.replace(/\/chunks\/?$/, "")),
);

export const meta: MetaFunction<typeof loader> = ({ data, error }) => titleMeta(error, data?.website.url, "Websites");

export function ErrorBoundary() {
  return <RouteError />;
}
