import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function PersonalizationProgramProfile() {
  return <PlaceholderPage title="Manage Program Profile" />;
}

export const meta: MetaFunction = () => [{ title: "Manage Program Profile · Assistant Console" }];
