import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Outlet, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { Pagination } from "~/components/Pagination";
import { RouteError } from "~/components/RouteError";
import { useTableGeneration } from "~/components/editable-table/RowsForm";
import { DeleteUrlsConfirm } from "~/components/websites/RowMenu";
import { usePolling } from "~/components/usePolling";
import { PageSizes, StatusFilter, WebsiteSearch } from "~/components/websites/Toolbar";
import { WEBSITES_FORM_ID, WebsitesTable } from "~/components/websites/WebsitesTable";
import * as s from "~/components/websites/WebsitesTable.css";
import { countOf } from "~/lib/format";
import { lastPageInstead } from "~/lib/query-params";
import {
  hasPendingWork,
  isUnderWebsitesList,
  listSearchOf,
  skipPatternSuggestions,
  websiteFormRow,
  websitesListParams,
} from "~/lib/websites";
import { knowledgeApi } from "~/server/api/knowledge-api.server";
import { requireClient } from "~/server/clients.server";
import { keepDataWhileSame } from "~/lib/revalidation";
import { consoleContext } from "~/server/context.server";
import { handleWebsitesAction, type WebsitesActionData } from "~/server/websites.server";
import { KnowledgeGateConfirm } from "~/components/testing/KnowledgeGateConfirm";
import { useCanConfigure } from "~/lib/user";
import { requireUserWithPermission } from "~/server/permissions.server";
import { agentPageMeta } from "~/lib/page-title";

/**
 * The client's websites (also at /{url_code}/ai-training/websites, without an agent): page, page
 * size and search live in the URL so a pasted link shows the same view.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  // Under a drawer the address's page and page size are the drawer's: the list's own travel in `list`.
  const url = new URL(request.url);
  const list = websitesListParams(listSearchOf(url.searchParams, isUnderWebsitesList(url.pathname)));
  const websitesAt = (page: number) =>
    knowledgeApi.websites(api, app.id, {
      page,
      page_size: list.page_size,
      query: list.query || undefined,
      app_name: app.url_code,
    });
  const [asked, counts] = await Promise.all([websitesAt(list.page), knowledgeApi.statusCounts(api, app.id)]);
  const lastPage = lastPageInstead(list.page, { totalCount: asked.total_count, totalPages: asked.total_pages });
  const websites = lastPage === null ? asked : await websitesAt(lastPage);
  return json({
    client: { id: app.id, name: app.client_name },
    websites: websites.websites,
    totalPages: websites.total_pages,
    totalCount: websites.total_count,
    page: lastPage ?? list.page,
    pageSize: list.page_size,
    query: list.query,
    statusCounts: counts.status_counts,
    totalUrls: counts.total_count,
    // Per request and in UTC, for the browser to render the server's list: a year taken in each
    // side's own zone, or once when the server started, gave two lists near New Year.
    thisYear: new Date().getUTCFullYear(),
  });
}

/** Saves rows and runs row-menu actions; a user who may only look (client_user) gets 403. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  await requireUserWithPermission(api, "configure", app.id);
  return handleWebsitesAction({ request, api, app });
}

export default function Websites() {
  const data = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>() as WebsitesActionData | undefined;
  const location = useLocation();
  const canConfigure = useCanConfigure(data.client.id);
  const loadedRows = data.websites.map(websiteFormRow);
  const live = Object.fromEntries(data.websites.map((website) => [String(website.id), website]));
  usePolling(hasPendingWork(data.websites, data.statusCounts));

  const tableKey = useTableGeneration(posted, loadedRows);
  return (
    <section>
      <h1>Websites</h1>
      <div className={s.toolbar}>
        <WebsiteSearch key={data.query} query={data.query} pageSize={data.pageSize} />
        <StatusFilter statusCounts={data.statusCounts} totalCount={data.totalUrls} />
      </div>
      {posted?.confirm ? (
        <DeleteUrlsConfirm
          websiteId={posted.confirm.websiteId}
          url={posted.confirm.url}
          cancelTo={`${location.pathname}${location.search}`}
        />
      ) : null}
      {posted?.gate ? (
        <KnowledgeGateConfirm
          gate={posted.gate}
          form={WEBSITES_FORM_ID}
          intent="save"
          cancelTo={`${location.pathname}${location.search}`}
        />
      ) : null}
      <WebsitesTable
        // Only the editable values name the table's content: statuses moving on (polling) keep what is typed.
        key={tableKey}
        rows={posted?.rows ?? loadedRows}
        errors={posted?.errors ?? []}
        formError={posted?.formError ?? null}
        live={live}
        canConfigure={canConfigure}
        skipSuggestions={skipPatternSuggestions(data.thisYear)}
      />
      <div className={s.footer}>
        <Pagination page={data.page} totalPages={data.totalPages} />
        <PageSizes pageSize={data.pageSize} />
        <span className={s.count}>{countOf(data.totalCount, "website")}</span>
      </div>
      <Outlet />
    </section>
  );
}

/** A drawer opened, closed or paged over the list leaves the list as it is: its own parameters did not change. */
export const shouldRevalidate = keepDataWhileSame((url) =>
  JSON.stringify(websitesListParams(listSearchOf(url.searchParams, isUnderWebsitesList(url.pathname)))),
);

export const meta: MetaFunction<typeof loader> = (args) => agentPageMeta(args, "Websites");

export function ErrorBoundary() {
  return <RouteError />;
}
