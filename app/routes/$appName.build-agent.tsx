import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function BuildAgent() {
  return <PlaceholderPage title="Build Agent" />;
}

export const meta: MetaFunction = () => [{ title: "Build Agent · Assistant Console" }];
