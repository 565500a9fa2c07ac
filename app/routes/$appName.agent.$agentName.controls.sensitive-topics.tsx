import type { SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { CONTROL_HELP_TEXTS, CONTROL_LABELS } from "../../contract";
import { ControlsScreen, useFormGeneration } from "~/components/controls/ControlsForm";
import { TopicsForm } from "~/components/controls/TopicsForm";
import { RouteError } from "~/components/RouteError";
import { userCan } from "~/lib/permissions";
import type { loader as rootLoader } from "~/root";
import { controlsScreen, loadTopics, saveTopics } from "~/server/controls.server";

const TYPE = "sensitive_topics";
const TITLE = CONTROL_LABELS[TYPE];

/** The Sensitive Topics of one trigger point (also at /{url_code}/controls/sensitive-topics): 8 rows of topic and Disclaimer Text. */
export async function loader(args: LoaderFunctionArgs) {
  return loadTopics(await controlsScreen(args), TYPE);
}

export async function action(args: ActionFunctionArgs) {
  return saveTopics(await controlsScreen(args), args.request, TYPE);
}

export default function SensitiveTopics() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>() as SubmissionResult<string[]> | undefined;
  const me = useRouteLoaderData<typeof rootLoader>("root")?.signedIn?.user;
  const readOnly = !(me && userCan(me, "configure", data.client.id));
  const generation = useFormGeneration();
  return (
    <ControlsScreen title={TITLE} intro={CONTROL_HELP_TEXTS[TYPE]} choice={data.choice} error={data.error}>
      <TopicsForm key={generation} type={TYPE} rows={data.rows} lastResult={lastResult} readOnly={readOnly} />
    </ControlsScreen>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${TITLE} · ${data.client.name} · Assistant Console` : `${TITLE} · Assistant Console` },
];

export function ErrorBoundary() {
  return <RouteError />;
}
