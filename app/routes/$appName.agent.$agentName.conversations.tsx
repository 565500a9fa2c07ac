import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ConversationsScreen } from "~/components/conversations/ConversationsScreen";
import { RouteError } from "~/components/RouteError";
import { loadConversations } from "~/server/conversations.server";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/**
 * The conversations of one agent (its trigger point), latest first, with every filter, the sort
 * and the page in the address (`?from&to&environment&outcome&rating&lead&reviewed&search&sort&page&page_size`).
 */
export async function loader(args: LoaderFunctionArgs) {
  return loadConversations(args);
}

export default function AgentConversations() {
  return <ConversationsScreen />;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data?.agent
      ? `Conversations · ${data.agent.name} · ${data.client.name} · Assistant Console`
      : "Conversations · Assistant Console",
  },
];

export function ErrorBoundary() {
  return <RouteError />;
}
