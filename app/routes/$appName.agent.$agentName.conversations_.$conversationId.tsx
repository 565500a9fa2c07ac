import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { TranscriptScreen } from "~/components/conversations/TranscriptScreen";
import { RouteError } from "~/components/RouteError";
import { conversationAction, loadConversation } from "~/server/conversations.server";
import { titleMeta } from "~/lib/page-title";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** One conversation of the agent: every message, each answer with its sources and the trace recorded when it was given. */
export async function loader(args: LoaderFunctionArgs) {
  return loadConversation(args);
}

/** Add an answer as a test question, lower or exclude a page it drew on, mark it reviewed; a client user gets 403. */
export async function action(args: ActionFunctionArgs) {
  return conversationAction(args);
}

export default function AgentConversation() {
  return <TranscriptScreen />;
}

export const meta: MetaFunction<typeof loader> = ({ data, error }) =>
  titleMeta(error, "Conversation", data?.agent?.name, data?.agent ? data.client.name : null);

export function ErrorBoundary() {
  return <RouteError />;
}
