import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function InputPrompts() {
  return <PlaceholderPage title="Input Prompts" />;
}

export const meta: MetaFunction = () => [{ title: "Input Prompts · Assistant Console" }];
