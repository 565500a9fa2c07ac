import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Outlet, useActionData, useLoaderData, useLocation, useParams } from "@remix-run/react";
import { FILE_ENVIRONMENTS_RULE, FILE_WORKING_STATUSES, type FileStatus } from "@contract/values/files";
import { DeleteFileConfirm, FilesTable } from "~/components/files/FilesTable";
import * as s from "~/components/files/files.css";
import { UploadPanel } from "~/components/files/UploadPanel";
import { RouteError } from "~/components/RouteError";
import { useToast } from "~/components/Toaster";
import { usePolling } from "~/components/usePolling";
import { requireClient } from "~/server/clients.server";
import { addressWithout, keepDataWhileSame } from "~/lib/revalidation";
import { consoleContext } from "~/server/context.server";
import { handleFilesAction, loadFiles, tagsToConfirm, type FilesActionData } from "~/server/files.server";
import { KnowledgeGateConfirm } from "~/components/testing/KnowledgeGateConfirm";
import * as ui from "~/styles/ui.css";
import { readSearchParam } from "~/lib/query-params";
import { DEFAULT_TABLE_PAGE_SIZE, readTableView } from "~/lib/table-view";
import { CONFIRM_TAGS_PARAM, FILES_QUESTION_PARAMS, filesListSearch } from "~/lib/files";
import { useCanConfigure } from "~/lib/user";
import { requireUserWithPermission } from "~/server/permissions.server";
import { agentPageMeta } from "~/lib/page-title";

/**
 * The knowledge store's uploaded PDFs (also at /{url_code}/ai-training/files): search in the URL,
 * uploads with progress, tags per file, each file's chunks in a drawer, deletion after a question.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const url = new URL(request.url);
  const search = readSearchParam(url.searchParams.get("search"), 200);
  const { files, paging, error } = await loadFiles(api, app.id, search, readTableView(url.searchParams, []));
  const deleteId = Number(url.searchParams.get("delete"));
  return json({
    client: { id: app.id, name: app.client_name, urlCode: app.url_code },
    files,
    paging,
    error,
    search,
    deleting: files.find((file) => file.id === deleteId) ?? null,
    tagsConfirm: url.searchParams.has(CONFIRM_TAGS_PARAM)
      ? await tagsToConfirm(api, app, files, url.searchParams)
      : null,
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = consoleContext(context);
  const { api, app } = await requireClient(request, ctx, params.appName);
  const me = await requireUserWithPermission(api, "configure", app.id);
  const url = new URL(request.url);
  for (const name of [...FILES_QUESTION_PARAMS, "index"]) url.searchParams.delete(name);
  return handleFilesAction({ request, context: ctx, api, app, userId: me.id, backTo: `${url.pathname}${url.search}` });
}

export default function Files() {
  const data = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>() as FilesActionData | undefined;
  const location = useLocation();
  const { appName } = useParams();
  const showToast = useToast();
  const canConfigure = useCanConfigure(data.client.id);
  usePolling(data.files.some((file) => FILE_WORKING_STATUSES.includes(file.status as FileStatus)));
  const cancelTo = `${location.pathname}${filesListSearch(location.search)}`;

  return (
    <section>
      <h1>Files</h1>
      <p className={ui.muted} data-testid="file-environments">
        {FILE_ENVIRONMENTS_RULE}
      </p>
      <div className={s.toolbar}>
        <Form method="get" role="search" className={s.search} aria-label="Search files">
          {/* Keyed by the search, so Back and Forward show the search of the files they show. */}
          <input
            key={data.search}
            type="search"
            name="search"
            defaultValue={data.search}
            aria-label="Search files"
            placeholder="Search files"
            className={ui.input}
          />
          {/* A search starts again at page 1 and keeps the rows per page. */}
          {data.paging.view.pageSize !== DEFAULT_TABLE_PAGE_SIZE ? (
            <input type="hidden" name="page_size" value={data.paging.view.pageSize} />
          ) : null}
          <button type="submit" className={ui.button.secondary}>
            Search
          </button>
        </Form>
        {canConfigure ? (
          <UploadPanel
            endpoint={`/${appName}/files-upload`}
            outcomes={posted?.intent === "upload" ? posted.outcomes : []}
            formError={posted?.intent === "upload" ? posted.formError : null}
            onToast={showToast}
          />
        ) : null}
      </div>
      {posted && posted.intent !== "upload" ? (
        <p role="alert" className={ui.fieldError}>
          {posted.formError}
        </p>
      ) : null}
      {data.deleting && canConfigure ? <DeleteFileConfirm file={data.deleting} cancelTo={cancelTo} /> : null}
      {data.tagsConfirm && canConfigure ? (
        <Form method="post" aria-label={`Tags of ${data.tagsConfirm.file.name} for production`}>
          <p>
            Tag <strong>{data.tagsConfirm.file.name}</strong> {data.tagsConfirm.tags.join(" and ") || "with no tag"}:
          </p>
          <input type="hidden" name="file_id" value={data.tagsConfirm.file.id} />
          {data.tagsConfirm.tags.map((tag) => (
            <input key={tag} type="hidden" name="tags" value={tag} />
          ))}
          <KnowledgeGateConfirm gate={data.tagsConfirm.gate} intent="tags" cancelTo={cancelTo} />
        </Form>
      ) : null}
      {data.error ? (
        <p role="alert" className={ui.fieldError}>
          {data.error}
        </p>
      ) : (
        <FilesTable files={data.files} paging={data.paging} canConfigure={canConfigure} search={data.search} />
      )}
      <Outlet />
    </section>
  );
}

/** A file's chunks drawer, opened, closed or restyled, leaves the list as it is (its path is the drawer's). */
export const shouldRevalidate = keepDataWhileSame(addressWithout(["font", "theme"], () => "files"));

export const meta: MetaFunction<typeof loader> = (args) => agentPageMeta(args, "Files");

export function ErrorBoundary() {
  return <RouteError />;
}
