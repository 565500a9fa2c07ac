import type { LoaderFunctionArgs } from "@remix-run/node";
import { PREVIEW_WITHOUT_JAVASCRIPT } from "~/lib/appearance";
import { botApi } from "~/server/api/bot-api.server";
import { requireClient, requireTriggerPoint } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";

/**
 * The Appearance page's live preview: the real widget on a page of its own, with the Sandbox
 * script in preview mode (it takes the form's unsaved values by message from this origin) and
 * opening by itself after 1 second, without taking the keyboard from the form beside it.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = consoleContext(context);
  const { api, app } = await requireClient(request, ctx, params.appName);
  const url = new URL(request.url);
  const choice = requireTriggerPoint(app, url.pathname.replace(/\/preview\/?$/, ""), url.searchParams);
  const install = await botApi.install(api, app.id, "stage", choice.triggerPoint);
  const script = install.content.replace("<script ", '<script data-preview="true" ');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Chat preview</title>
<style>body{margin:0;min-height:100vh;background:repeating-linear-gradient(45deg,#f4f6f9,#f4f6f9 12px,#eef1f5 12px,#eef1f5 24px);font-family:system-ui,sans-serif}</style></head>
<body><main><p style="padding:16px;color:#4a5568;margin:0">Preview of the chat widget as visitors will see it.</p>
<noscript><p style="margin:0 16px;padding:12px 16px;background:#fff;border:1px solid #d9dde6;border-radius:8px;color:#1f2430">${PREVIEW_WITHOUT_JAVASCRIPT}</p></noscript></main>
${script}
<script nonce="${ctx.cspNonce ?? ""}">window.addEventListener("load", function () { setTimeout(function () { if (window.AssistantWidget) window.AssistantWidget.open(); }, 1000); });</script>
</body></html>`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}
