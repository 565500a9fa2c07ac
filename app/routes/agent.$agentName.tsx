import type { LoaderFunctionArgs } from "@remix-run/node";
import { useParams } from "@remix-run/react";
import { useEffect } from "react";
import { ArchitectureDiagram, architectureMeta } from "~/components/ArchitectureDiagram";
import { RouteError } from "~/components/RouteError";
import { REFUSED_CHARACTERS } from "@contract/text";
import { NOT_FOUND_TEXT } from "~/lib/messages";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** The spec's "selected agent site code"; only remembered, the URL stays the source of truth. */
const SELECTED_AGENT_KEY = "selectedAgent";

/** An agent's name is at most this long (the API's limit), its site code shorter. */
const MAX_AGENT_NAME = 200;

/**
 * No client is selected here, so nothing checks the name against an agent: a name no agent can
 * have (blank, overlong, with control characters) is not found, rather than written into the
 * heading and the browser's storage.
 */
export function loader({ params }: LoaderFunctionArgs) {
  const name = params.agentName ?? "";
  // The characters the API refuses in any string, NUL included: the one class it names them by.
  const refused = !name.trim() || name.length > MAX_AGENT_NAME || name.replace(REFUSED_CHARACTERS, "") !== name;
  if (refused) throw new Response(NOT_FOUND_TEXT, { status: 404, statusText: "Not Found" });
  return null;
}

export default function ArchitectureLanding() {
  const { agentName } = useParams();
  useEffect(() => {
    if (!agentName) return;
    try {
      localStorage.setItem(SELECTED_AGENT_KEY, agentName);
    } catch {
      // Storage can be disabled or full; remembering the agent is not worth breaking the page.
    }
  }, [agentName]);
  return <ArchitectureDiagram />;
}

export const meta = architectureMeta;

export function ErrorBoundary() {
  return <RouteError />;
}
