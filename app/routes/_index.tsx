import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function ClientsHome() {
  return <PlaceholderPage title="Clients" />;
}

export const meta: MetaFunction = () => [{ title: "Clients · Assistant Console" }];
