import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function UserProfileStore() {
  return <PlaceholderPage title="User Profile Store" />;
}

export const meta: MetaFunction = () => [{ title: "User Profile Store · Assistant Console" }];
