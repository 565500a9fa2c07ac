import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function BotTesting() {
  return <PlaceholderPage title="AI Testing" />;
}

export const meta: MetaFunction = () => [{ title: "AI Testing · Assistant Console" }];
