import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function AgentListHome() {
  return <PlaceholderPage title="Agents" />;
}

export const meta: MetaFunction = () => [{ title: "Agents · Assistant Console" }];
