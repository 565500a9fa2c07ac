import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function ImportClients() {
  return <PlaceholderPage title="Import Clients" />;
}

export const meta: MetaFunction = () => [{ title: "Import Clients · Assistant Console" }];
