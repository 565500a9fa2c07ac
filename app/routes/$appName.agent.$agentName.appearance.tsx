import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function Appearance() {
  return <PlaceholderPage title="Appearance" />;
}

export const meta: MetaFunction = () => [{ title: "Appearance · Assistant Console" }];
