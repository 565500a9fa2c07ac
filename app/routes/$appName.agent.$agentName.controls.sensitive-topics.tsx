import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function SensitiveTopics() {
  return <PlaceholderPage title="Sensitive Topics" />;
}

export const meta: MetaFunction = () => [{ title: "Sensitive Topics · Assistant Console" }];
