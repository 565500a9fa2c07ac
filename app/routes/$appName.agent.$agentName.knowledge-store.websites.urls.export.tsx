import type { LoaderFunctionArgs } from "@remix-run/node";
import { UNIFIED_PAGE_SIZES } from "~/lib/urls";
import { knowledgeApi } from "~/server/api/knowledge-api.server";
import { requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import { exportUrls } from "~/server/urls.server";

/** CSV of all the client's URLs (or of one status) with the unified drawer's search, plus each row's website. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  return exportUrls({
    request,
    pageSizes: UNIFIED_PAGE_SIZES,
    site: "all",
    unified: true,
    list: (query) => knowledgeApi.allUrls(api, app.id, query),
  });
}
