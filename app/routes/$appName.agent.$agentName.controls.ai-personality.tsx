import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function AiPersonality() {
  return <PlaceholderPage title="AI Personality" />;
}

export const meta: MetaFunction = () => [{ title: "AI Personality · Assistant Console" }];
