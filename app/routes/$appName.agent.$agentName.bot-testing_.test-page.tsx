import type { LoaderFunctionArgs } from "@remix-run/node";
import { environmentOf, testPageHtml } from "~/lib/bot-testing";
import { botApi } from "~/server/api/bot-api.server";
import { requireAgentOf, requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";

/** 'Test Chatbot': a page of its own (outside the console's layout) carrying exactly the agent's embed script. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const agent = requireAgentOf(app, new URL(request.url).pathname);
  const install = await botApi.install(api, app.id, environmentOf(new URL(request.url).searchParams), agent.site_code);
  return new Response(testPageHtml(agent.name, install.content), {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}
