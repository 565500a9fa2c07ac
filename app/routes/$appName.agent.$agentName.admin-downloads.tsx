import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function AgentAdminDownloads() {
  return <PlaceholderPage title="Admin Downloads" />;
}

export const meta: MetaFunction = () => [{ title: "Admin Downloads · Assistant Console" }];
