import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function SmartProbing() {
  return <PlaceholderPage title="User Probing Guidelines" />;
}

export const meta: MetaFunction = () => [{ title: "User Probing Guidelines · Assistant Console" }];
