import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function Websites() {
  return <PlaceholderPage title="Websites" />;
}

export const meta: MetaFunction = () => [{ title: "Websites · Assistant Console" }];
