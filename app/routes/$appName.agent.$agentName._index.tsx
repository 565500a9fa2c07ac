import type { MetaFunction } from "@remix-run/node";
import { ArchitectureDiagram } from "~/components/ArchitectureDiagram";
import { RouteError } from "~/components/RouteError";

export default function AgentArchitecture() {
  return <ArchitectureDiagram />;
}

export const meta: MetaFunction = ({ params }) => [{ title: `${params.agentName} architecture · Assistant Console` }];

export function ErrorBoundary() {
  return <RouteError />;
}
