import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function UserProfilingUserProfile() {
  return <PlaceholderPage title="Manage User Profile" />;
}

export const meta: MetaFunction = () => [{ title: "Manage User Profile · Assistant Console" }];
