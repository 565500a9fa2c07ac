import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { titleMeta } from "~/lib/page-title";
import { useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { ChunksDrawer, chunksDrawerShouldRevalidate } from "~/components/ChunksDrawer";
import { RouteError } from "~/components/RouteError";
import { requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import { loadChunks, parseWebsiteId } from "~/server/urls.server";
import { readableAddress } from "~/lib/readable-address";

/** The chunks drawer, over the view-links drawer: one URL's cached chunks (`?url=`), font size and theme in the address too. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const websiteId = parseWebsiteId(params.websiteId);
  const search = new URL(request.url).searchParams;
  const url = search.get("url")?.trim() ?? "";
  const result = url
    ? await loadChunks(api, app.id, websiteId, url)
    : { chunks: null, error: "Choose a URL to see its chunks" };
  return json({ url, ...result });
}

export default function UrlChunks() {
  const { url, chunks, error } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const back = new URLSearchParams(location.search);
  for (const key of ["url", "font", "theme"]) back.delete(key);
  const closeTo = `${location.pathname.replace(/\/chunks\/?$/, "")}${back.size ? `?${back}` : ""}`;
  // Another URL's chunks on their way (font and theme changes load nothing).
  const loading =
    navigation.state === "loading" &&
    navigation.location.pathname === location.pathname &&
    new URLSearchParams(navigation.location.search).get("url") !== url;
  return (
    <ChunksDrawer
      title={`Chunks for URL ${readableAddress(url)}`}
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
  titleMeta(error, data ? `Chunks for URL ${readableAddress(data.url)}` : "Chunks");

export function ErrorBoundary() {
  return <RouteError />;
}
