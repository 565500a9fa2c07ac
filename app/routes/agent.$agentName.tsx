import { useParams } from "@remix-run/react";
import { useEffect } from "react";
import { ArchitectureDiagram, architectureMeta } from "~/components/ArchitectureDiagram";
import { RouteError } from "~/components/RouteError";

/** The spec's "selected agent site code"; only remembered, the URL stays the source of truth. */
const SELECTED_AGENT_KEY = "selectedAgent";

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
