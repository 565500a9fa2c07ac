import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function ManageClient() {
  return <PlaceholderPage title="Client Profile" />;
}

export const meta: MetaFunction = () => [{ title: "Client Profile · Assistant Console" }];
