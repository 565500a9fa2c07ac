import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function QualityCheck() {
  return <PlaceholderPage title="Hallucination Accuracy & Quality Check" />;
}

export const meta: MetaFunction = () => [{ title: "Hallucination Accuracy & Quality Check · Assistant Console" }];
