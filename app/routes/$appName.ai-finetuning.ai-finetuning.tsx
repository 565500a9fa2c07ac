import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function AiFinetuning() {
  return <PlaceholderPage title="AI Finetuning" />;
}

export const meta: MetaFunction = () => [{ title: "AI Finetuning · Assistant Console" }];
