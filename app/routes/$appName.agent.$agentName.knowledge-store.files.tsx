import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function Files() {
  return <PlaceholderPage title="Files" />;
}

export const meta: MetaFunction = () => [{ title: "Files · Assistant Console" }];
