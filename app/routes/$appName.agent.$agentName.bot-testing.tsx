import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { agentPageMeta } from "~/lib/page-title";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { FILE_ENVIRONMENTS_RULE } from "@contract/values/files";
import { useHydrated } from "~/components/useHydrated";
import { SelfApplyingSelect } from "~/components/SelfApplyingSelect";
import { COPY_MESSAGES, ENVIRONMENT_OPTIONS, environmentOf } from "~/lib/bot-testing";
import { copyWithoutJavaScript } from "~/lib/messages";
import { ApiError } from "~/server/api/client.server";
import { botApi } from "~/server/api/bot-api.server";
import { requireAgentOf, requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import { RouteError } from "~/components/RouteError";
import * as ui from "~/styles/ui.css";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** AI Testing: the agent's embed script for Sandbox or Production, a copy button, a test page and the guide. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const agent = requireAgentOf(app, new URL(request.url).pathname);
  const env = environmentOf(new URL(request.url).searchParams);
  try {
    const install = await botApi.install(api, app.id, env, agent.site_code);
    return json({ agentName: agent.name, env, script: install.content, error: null });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return json({ agentName: agent.name, env, script: "", error: `Error: ${error.message}` });
  }
}

export default function BotTesting() {
  const { agentName, env, script, error } = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  const hydrated = useHydrated();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(script);
      window.alert(COPY_MESSAGES.copied);
    } catch {
      window.alert(COPY_MESSAGES.failed);
    }
  };
  return (
    <section>
      <h1>AI Testing</h1>
      <Form method="get" className={ui.toolbar} aria-label="Choose environment">
        <label className={ui.label} htmlFor="environment">
          Environment
        </label>
        <SelfApplyingSelect id="environment" name="env" value={env} options={ENVIRONMENT_OPTIONS} button="Show" />
      </Form>
      {error ? (
        <p role="alert" className={ui.fieldError}>
          {error}
        </p>
      ) : (
        <>
          <h2>Chatbot web script</h2>
          <pre className={ui.pre} aria-label="Chatbot web script" data-testid="bot-script" tabIndex={0}>
            {script}
          </pre>
          <div className={ui.toolbar}>
            {hydrated ? (
              <button type="button" className={ui.button.primary} onClick={() => void copy()}>
                Copy Script
              </button>
            ) : (
              <span className={ui.muted}>{copyWithoutJavaScript("script", "Copy Script")}</span>
            )}
            <Link
              to={`${pathname.replace(/\/$/, "")}/test-page?env=${env}`}
              reloadDocument
              target="_blank"
              rel="noopener"
              className={ui.button.secondary}
            >
              Test Chatbot
            </Link>
            <a href="#script-guide" className={ui.button.link}>
              SCRIPT GUIDE
            </a>
          </div>
        </>
      )}
      <section id="script-guide" aria-labelledby="script-guide-title">
        <h2 id="script-guide-title">Script guide</h2>
        <ol>
          <li>
            Copy the script for the environment you want: Sandbox answers with the stage appearance, Production with
            what was pushed to production. {FILE_ENVIRONMENTS_RULE}
          </li>
          <li>
            Paste it once into every page where {agentName} should appear, just before the closing{" "}
            <code>&lt;/body&gt;</code> tag (or in your tag manager as custom HTML).
          </li>
          <li>
            Publish the page and reload it: the launcher appears in the corner set in Appearance. Nothing else is
            needed: the script loads its settings and answers from this console.
          </li>
          <li>
            Keep the key in the script as it is. Each environment has its own key; the assistant answers only on pages
            carrying a valid one.
          </li>
        </ol>
      </section>
    </section>
  );
}

/** The page's name and its client's, as every client page's title has. */
export const meta: MetaFunction = (args) => agentPageMeta(args, "AI Testing");

export function ErrorBoundary() {
  return <RouteError />;
}
