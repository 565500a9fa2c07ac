import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function ProgramDataModel() {
  return <PlaceholderPage title="Program Data Model" />;
}

export const meta: MetaFunction = () => [{ title: "Program Data Model · Assistant Console" }];
