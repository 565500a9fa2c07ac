import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportConversations } from "~/server/conversations.server";

/** The agent's conversations that the list's filters find, every page of them, as a CSV file. */
export async function loader(args: LoaderFunctionArgs) {
  return exportConversations(args);
}
