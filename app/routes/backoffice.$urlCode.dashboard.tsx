import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function BusinessInsights() {
  return <PlaceholderPage title="Business Insights" />;
}

export const meta: MetaFunction = () => [{ title: "Business Insights · Assistant Console" }];
