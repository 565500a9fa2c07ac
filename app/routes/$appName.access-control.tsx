import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function AccessControl() {
  return <PlaceholderPage title="Access Control" />;
}

export const meta: MetaFunction = () => [{ title: "Access Control · Assistant Console" }];
