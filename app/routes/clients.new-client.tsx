import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function NewClient() {
  return <PlaceholderPage title="OnBoard Client" />;
}

export const meta: MetaFunction = () => [{ title: "OnBoard Client · Assistant Console" }];
