import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ConversationsScreen } from "~/components/conversations/ConversationsScreen";
import { RouteError } from "~/components/RouteError";
import { loadConversations } from "~/server/conversations.server";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** The conversations of every agent of the client, with the filters of an agent's list in the address. */
export async function loader(args: LoaderFunctionArgs) {
  return loadConversations(args);
}

export default function ClientConversations() {
  return <ConversationsScreen />;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Conversations · ${data.client.name} · Assistant Console` : "Conversations · Assistant Console" },
];

export function ErrorBoundary() {
  return <RouteError />;
}
