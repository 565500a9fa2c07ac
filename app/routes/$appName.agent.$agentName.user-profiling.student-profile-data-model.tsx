import type { MetaFunction } from "@remix-run/node";
import { PlaceholderPage } from "~/components/PlaceholderPage";

export default function UserProfilingStudentProfile() {
  return <PlaceholderPage title="Student Profile Data Model" />;
}

export const meta: MetaFunction = () => [{ title: "Student Profile Data Model · Assistant Console" }];
