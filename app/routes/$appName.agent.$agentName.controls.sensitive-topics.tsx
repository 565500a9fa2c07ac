import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { CONTROL_LABELS } from "@contract/values/controls";
import { TopicsScreen } from "~/components/controls/TopicsForm";
import { RouteError } from "~/components/RouteError";
import { controlsScreen, loadTopics, saveTopics } from "~/server/controls.server";
import { agentPageMeta } from "~/lib/page-title";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

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
  return <TopicsScreen type={TYPE} />;
}

export const meta: MetaFunction<typeof loader> = (args) => agentPageMeta(args, TITLE);

export function ErrorBoundary() {
  return <RouteError />;
}
