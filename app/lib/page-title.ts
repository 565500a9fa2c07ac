import type { MetaArgs, MetaDescriptor } from "@remix-run/node";
import { isRouteErrorResponse } from "@remix-run/react";
import type { ClientApp } from "@contract";
import { selectedAgentFor, selectedClientFor } from "./clients";
import { NOT_FOUND_TEXT } from "./messages";

export const CONSOLE_NAME = "Assistant Console";

/**
 * A tab's title, most particular first: "<page> · <client name> · Assistant Console". Parts that
 * are missing (no client on a global page, no data on an error) are left out.
 */
export function pageTitle(...parts: (string | null | undefined)[]) {
  return [...parts, CONSOLE_NAME].filter(Boolean).join(" · ");
}

/** The title of every 404 page, in the spec's words for it. */
export const NOT_FOUND_TITLE = pageTitle(NOT_FOUND_TEXT);

/**
 * A page's meta: its title from `parts`, or the 404 page's title when the page shows that instead
 * (Remix hands every meta function the error its page shows).
 */
export function titleMeta(error: unknown, ...parts: (string | null | undefined)[]): MetaDescriptor[] {
  return [{ title: isRouteErrorResponse(error) && error.status === 404 ? NOT_FOUND_TITLE : pageTitle(...parts) }];
}

/** What meta needs of the root loader's data: the clients the user sees. */
type RootData = { signedIn: { apps: ClientApp[] } | null } | undefined;

/**
 * The client and agent a page's address names, from the root loader's list of clients: for the
 * meta of a page with no loader of its own (a hub, an agent's landing page).
 */
export function selectionFor({ matches, location }: Pick<MetaArgs, "matches" | "location">) {
  const root = matches.find((match) => match.id === "root")?.data as RootData;
  const client = root?.signedIn ? selectedClientFor(location.pathname, root.signedIn.apps) : null;
  return { client, agent: selectedAgentFor(location.pathname, client) };
}

/**
 * The meta of a page at an agent's address: "<page> · <agent> · <client> · Assistant Console", so
 * that the same page of two agents, open in two tabs, can be told apart. At the client's own
 * address of the page (no agent in it) the agent is left out.
 */
export function agentPageMeta(args: Pick<MetaArgs, "matches" | "location" | "error">, page: string) {
  const { client, agent } = selectionFor(args);
  return titleMeta(args.error, page, agent?.name, client?.client_name);
}
