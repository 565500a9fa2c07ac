import type { LoaderFunctionArgs } from "@remix-run/node";
import { siteOf, WEBSITE_PAGE_SIZES } from "~/lib/urls";
import { knowledgeApi } from "~/server/api/knowledge-api.server";
import { requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import { exportUrls, findWebsite, parseWebsiteId } from "~/server/urls.server";

/** CSV of one website's URLs with the drawer's filters (`tz` picks the time zone of the dates). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const websiteId = parseWebsiteId(params.websiteId);
  const website = await findWebsite(api, app.id, websiteId);
  return exportUrls({
    request,
    pageSizes: WEBSITE_PAGE_SIZES,
    site: siteOf(website.url),
    unified: false,
    list: (query) => knowledgeApi.websiteUrls(api, app.id, websiteId, query),
  });
}
