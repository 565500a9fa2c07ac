import { ArchitectureDiagram, architectureMeta } from "~/components/ArchitectureDiagram";
import { RouteError } from "~/components/RouteError";

export default function AgentArchitecture() {
  return <ArchitectureDiagram />;
}

export const meta = architectureMeta;

export function ErrorBoundary() {
  return <RouteError />;
}
