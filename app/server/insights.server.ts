import { json, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { INSIGHT_CHARTS, INSIGHT_ENVIRONMENTS, type ClientApp, type InsightChart, type InsightsQuery } from "@contract";
import { agentSegment } from "~/lib/clients";
import { isRowId } from "~/lib/ids";
import { GAP_ANCHOR } from "~/lib/insights-gaps";
import {
  controlsPathFor,
  DEFAULT_TRIGGER_POINT_LABEL,
  withClientTriggerPoint,
  testQuestionsPathFor,
  triggerPointName,
  triggerPointsOf,
} from "~/lib/trigger-points";
import { ApiError, shownInPlace, type ApiClient } from "./api/client.server";
import { knowledgeApi } from "./api/knowledge-api.server";
import { testingApi } from "./api/testing-api.server";
import { requireConfigure } from "./permissions.server";
import { insightsApi } from "./api/insights-api.server";
import { requireClient } from "./clients.server";
import { consoleContext } from "./context.server";
import { redirectWithToast } from "./toast.server";
import { readForm } from "./http/form-data.server";
import { textOf } from "./http/form-fields.server";

/*
 * Business Insights on the back-office host: /backoffice/{url_code}/dashboard?from&to&triggerPoint
 * &environment. Every filter lives in the address (a GET form), each chart's CSV is a small POST
 * form whose answer sends the browser to the file (which then also sits in Admin Downloads).
 */

/** The filters of the address, as the API takes them (unknown values left for the API to refuse). */
export function insightFilters(
  params: URLSearchParams,
): InsightsQuery & { environment: (typeof INSIGHT_ENVIRONMENTS)[number] } {
  const environment = params.get("environment");
  const value = (name: string) => params.get(name)?.trim() || undefined;
  return {
    from: value("from"),
    to: value("to"),
    // 'triggerPoint' is the back-office links' spelling; an empty one means every trigger point.
    trigger_point:
      params.has("triggerPoint") && params.get("triggerPoint") !== "" ? params.get("triggerPoint")! : undefined,
    environment: (INSIGHT_ENVIRONMENTS as readonly string[]).includes(environment ?? "")
      ? (environment as (typeof INSIGHT_ENVIRONMENTS)[number])
      : "all",
  };
}

export async function dashboardLoader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.urlCode);
  const url = new URL(request.url);
  const { filters, triggerPointError } = withClientTriggerPoint(app, insightFilters(url.searchParams));
  const client = {
    id: app.id,
    name: app.client_name,
    urlCode: app.url_code,
    triggerPoints: triggerPointsOf(app),
    // Each agent's own screens are under its path: its site code, or its name when it has none.
    agents: app.agents.map((a) => ({
      siteCode: a.site_code,
      name: a.name,
      path: `/${app.url_code}/agent/${encodeURIComponent(agentSegment(a))}`,
    })),
    // Where each trigger point's Minimum Retrieval Confidence is set: an agent's own screen, or the
    // client's for Default ('') and trigger points no agent has.
    qualityChecks: Object.fromEntries(
      ["", ...triggerPointsOf(app)].map((point) => [point, controlsPathFor(app, point, "quality-check")]),
    ),
  };
  try {
    return json({
      client,
      filters,
      insights: await insightsApi.insights(api, app.id, filters),
      error: null,
      triggerPointError,
      fieldErrors: {} as Record<string, string[]>,
    });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    // A bad range: say so by the dates, and show the default range meanwhile.
    const fallback = await insightsApi.insights(api, app.id, {
      trigger_point: filters.trigger_point,
      environment: filters.environment,
    });
    return json({
      client,
      filters,
      insights: fallback,
      error: `Error: ${error.message}`,
      triggerPointError,
      fieldErrors: error.fieldErrors,
    });
  }
}

/** Who may download a chart's CSV: whoever may configure the client, the roles as the console names them. */
const CHART_CSV_REFUSED = "Only Client Admins, Admins and System Admins can download chart CSVs";

/** A chart's 'Download CSV': the API writes the file; the browser follows the signed link to it. */
export async function dashboardAction({ request, context, params }: ActionFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.urlCode);
  const url = new URL(request.url);
  const form = await readForm(request);
  const back = `${url.pathname}${url.search}`;
  const intent = form.get("intent");
  if (intent === "add-test-question" || intent === "index-page") {
    // Back to the question the action was taken on (without JavaScript the page would open at its top).
    const gap = textOf(form, "gap");
    const anchor = /^\d{1,3}$/.test(gap) ? `#${GAP_ANCHOR(Number(gap))}` : "";
    return closeGap(api, app, intent, form, url, `${back}${anchor}`);
  }
  const chart = textOf(form, "chart");
  if (!(INSIGHT_CHARTS as readonly string[]).includes(chart))
    return redirectWithToast(back, { type: "error", description: "Unknown chart" });
  let link: string;
  try {
    link = (
      await insightsApi.exportChart(
        api,
        app.id,
        chart as InsightChart,
        withClientTriggerPoint(app, insightFilters(url.searchParams)).filters,
      )
    ).download_url;
  } catch (error) {
    // A read-only Client may look but not add files to Admin Downloads (the page shows them no button).
    if (error instanceof Response && error.status === 403)
      return redirectWithToast(back, { type: "error", description: CHART_CSV_REFUSED });
    // Too many exports in a minute: the page again, under the limit's 429 and its Retry-After, saying so at the chart.
    if (error instanceof ApiError && error.status === 429)
      return json({ chart, message: `${CHART_CSV_FAILED}: ${error.message}` }, error.answerInit);
    if (shownInPlace(error))
      return redirectWithToast(back, { type: "error", description: `${CHART_CSV_FAILED}: ${error.reason}` });
    if (error instanceof Response) throw error;
    // Anything else is a failure of this server or the API's, whose words are not for the operator.
    console.error("chart export failed", error);
    return redirectWithToast(back, { type: "error", description: `${CHART_CSV_FAILED}. Please try again.` });
  }
  if (!/^(\/(?!\/)|https?:\/\/)/i.test(link))
    return redirectWithToast(back, {
      type: "error",
      description: `${CHART_CSV_FAILED}: the API gave no link to the file`,
    });
  return redirectDocument(link);
}

const CHART_CSV_FAILED = "Failed to download the CSV";

/**
 * A gap's two actions: keep an unanswered question as a test question of the trigger point it was
 * asked of (the form says which; else the one shown, Default when all are), expecting an answer;
 * or send a page of the inventory to be indexed.
 */
async function closeGap(
  api: ApiClient,
  app: ClientApp,
  intent: "add-test-question" | "index-page",
  form: FormData,
  url: URL,
  back: string,
) {
  await requireConfigure(api, app.id);
  try {
    if (intent === "add-test-question") {
      const asked = textOf(form, "trigger_point") || (insightFilters(url.searchParams).trigger_point ?? "");
      const triggerPoint = triggerPointsOf(app).includes(asked) ? asked : "";
      await testingApi.add(api, app.id, {
        trigger_point: triggerPoint,
        question: textOf(form, "question"),
        expect_outcome: "answered",
      });
      return redirectWithToast(back, {
        type: "success",
        description: `Added as a test question of ${triggerPoint ? triggerPointName(app, triggerPoint) : DEFAULT_TRIGGER_POINT_LABEL}`,
        link: { to: testQuestionsPathFor(app, triggerPoint), label: "Open Test Questions" },
      });
    }
    const urlId = Number(form.get("url_id"));
    if (!isRowId(urlId)) return redirectWithToast(back, { type: "error", description: "Choose a page to index" });
    await knowledgeApi.updateUrls(api, app.id, { status: "to_be_indexed", url_ids: [urlId], force_index: true });
    return redirectWithToast(back, { type: "success", description: "The page is queued for indexing" });
  } catch (error) {
    if (!shownInPlace(error)) throw error;
    // Already kept (a second click): nothing was added, and nothing went wrong either.
    if (error.status === 409) return redirectWithToast(back, { type: "info", description: error.message });
    return redirectWithToast(back, { type: "error", description: error.reason });
  }
}
