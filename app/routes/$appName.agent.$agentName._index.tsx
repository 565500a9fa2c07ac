import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function AgentArchitecture() {
  return <PlaceholderPage title="Architecture" />;
}

export const meta: MetaFunction = () => [{ title: "Architecture · Assistant Console" }];
