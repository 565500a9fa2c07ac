import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { titleMeta } from "~/lib/page-title";
import { useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { ChunksDrawer, chunksDrawerShouldRevalidate } from "~/components/ChunksDrawer";
import { RouteError } from "~/components/RouteError";
import { ApiError } from "~/server/api/client.server";
import { filesApi } from "~/server/api/files-api.server";
import { invariantResponse, requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import { isRowId } from "~/lib/ids";

/** The chunks drawer of one uploaded file, over the Files page. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const fileId = Number(params.fileId);
  invariantResponse(isRowId(fileId), "File not found");
  try {
    const { file_name, chunks } = await filesApi.chunks(api, app.id, fileId);
    return json({ fileName: file_name, chunks, error: null });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      throw new Response("File not found", { status: 404, statusText: "File not found" });
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return json({ fileName: "", chunks: null, error: `Error: ${error.message}` });
  }
}

export default function FileChunks() {
  const { fileName, chunks, error } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const back = new URLSearchParams(location.search);
  for (const key of ["font", "theme"]) back.delete(key);
  const closeTo = `${location.pathname.replace(/\/\d+\/chunks\/?$/, "")}${back.size ? `?${back}` : ""}`;
  const loading =
    navigation.state === "loading" &&
    navigation.location.pathname !== location.pathname &&
    navigation.location.pathname.endsWith("/chunks");
  return (
    <ChunksDrawer
      title={`Chunks for file ${fileName}`}
      closeTo={closeTo}
      chunks={chunks}
      error={error}
      loading={loading}
    />
  );
}

/** Font size and theme are the browser's business: changing them asks the API for nothing. */
export const shouldRevalidate = chunksDrawerShouldRevalidate;

export const meta: MetaFunction<typeof loader> = ({ data, error }) =>
  titleMeta(error, data?.fileName ? `Chunks for file ${data.fileName}` : "Chunks");

export function ErrorBoundary() {
  return <RouteError />;
}
