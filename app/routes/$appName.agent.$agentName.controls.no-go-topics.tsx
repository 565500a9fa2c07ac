import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function NoGoTopics() {
  return <PlaceholderPage title="No-Go Topics" />;
}

export const meta: MetaFunction = () => [{ title: "No-Go Topics · Assistant Console" }];
