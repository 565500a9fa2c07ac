import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function Integrations() {
  return <PlaceholderPage title="Integrations" />;
}

export const meta: MetaFunction = () => [{ title: "Integrations · Assistant Console" }];
