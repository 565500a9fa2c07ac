import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function Users() {
  return <PlaceholderPage title="Users" />;
}

export const meta: MetaFunction = () => [{ title: "Users · Assistant Console" }];
