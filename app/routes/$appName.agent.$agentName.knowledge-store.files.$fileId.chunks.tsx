import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { titleMeta } from "~/lib/page-title";
import { Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { ChunksDrawer, chunksDrawerShouldRevalidate } from "~/components/ChunksDrawer";
import { RouteError } from "~/components/RouteError";
import { ApiError } from "~/server/api/client.server";
import { filesApi } from "~/server/api/files-api.server";
import { invariantResponse, requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import { isRowId } from "~/lib/ids";
import { lastPageInstead, readPageParam } from "~/lib/query-params";
import * as ui from "~/styles/ui.css";

/**
 * Chunks the drawer shows at once. A manual of a few thousand pages holds several thousand chunks:
 * all of them at once made a page of megabytes, sent twice (the markup, and the data it hydrates).
 */
const FILE_CHUNKS_SHOWN = 100;
/** The drawer's page of chunks in the address: the Files table's own `page` stays the table's. */
const CHUNKS_PAGE_PARAM = "chunks_page";

/** The chunks drawer of one uploaded file, over the Files page: one page of its chunks. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const fileId = Number(params.fileId);
  invariantResponse(isRowId(fileId), "File not found");
  const pageOf = (page: number) => filesApi.chunks(api, app.id, fileId, { page, pageSize: FILE_CHUNKS_SHOWN });
  try {
    const asked = readPageParam(new URL(request.url).searchParams.get(CHUNKS_PAGE_PARAM));
    let read = await pageOf(asked);
    const totalPages = Math.max(1, Math.ceil(read.total / FILE_CHUNKS_SHOWN));
    // A page past the end (the file was indexed again, shorter) shows the last one.
    const last = lastPageInstead(asked, { totalCount: read.total, totalPages });
    if (last !== null) read = await pageOf(last);
    return json({
      fileName: read.file_name,
      chunks: read.chunks,
      paging: { page: Math.min(asked, totalPages), totalPages, total: read.total },
      error: null,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      throw new Response("File not found", { status: 404, statusText: "File not found" });
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return json({ fileName: "", chunks: null, paging: null, error: `Error: ${error.message}` });
  }
}

export default function FileChunks() {
  const { fileName, chunks, paging, error } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const back = new URLSearchParams(location.search);
  for (const key of ["font", "theme", CHUNKS_PAGE_PARAM]) back.delete(key);
  const closeTo = `${location.pathname.replace(/\/\d+\/chunks\/?$/, "")}${back.size ? `?${back}` : ""}`;
  const pageParam = (search: string) => new URLSearchParams(search).get(CHUNKS_PAGE_PARAM);
  const loading =
    navigation.state === "loading" &&
    navigation.location.pathname.endsWith("/chunks") &&
    // Another file's chunks, or another page of these (not the font size or theme, which load nothing).
    (navigation.location.pathname !== location.pathname ||
      pageParam(navigation.location.search) !== pageParam(location.search));
  return (
    <ChunksDrawer
      title={`Chunks for file ${fileName}`}
      closeTo={closeTo}
      chunks={chunks}
      error={error}
      loading={loading}
    >
      {paging && paging.totalPages > 1 ? <ChunkPages {...paging} /> : null}
    </ChunksDrawer>
  );
}

/** Which chunks the drawer shows of how many, with links to the pages before and after. */
function ChunkPages({ page, totalPages, total }: { page: number; totalPages: number; total: number }) {
  const location = useLocation();
  const to = (next: number) => {
    const search = new URLSearchParams(location.search);
    search.set(CHUNKS_PAGE_PARAM, String(next));
    return `?${search}`;
  };
  const first = (page - 1) * FILE_CHUNKS_SHOWN + 1;
  const last = Math.min(total, page * FILE_CHUNKS_SHOWN);
  return (
    <nav aria-label="Chunk pages" className={ui.pager}>
      <span>
        Chunks {first.toLocaleString("en-US")}–{last.toLocaleString("en-US")} of {total.toLocaleString("en-US")}
      </span>
      {page > 1 ? (
        <Link to={to(page - 1)} className={ui.button.secondary} preventScrollReset>
          Previous chunks
        </Link>
      ) : null}
      {page < totalPages ? (
        <Link to={to(page + 1)} className={ui.button.secondary} preventScrollReset>
          Next chunks
        </Link>
      ) : null}
    </nav>
  );
}

/** Font size and theme are the browser's business: changing them asks the API for nothing. */
export const shouldRevalidate = chunksDrawerShouldRevalidate;

export const meta: MetaFunction<typeof loader> = ({ data, error }) =>
  titleMeta(error, data?.fileName ? `Chunks for file ${data.fileName}` : "Chunks");

export function ErrorBoundary() {
  return <RouteError />;
}
