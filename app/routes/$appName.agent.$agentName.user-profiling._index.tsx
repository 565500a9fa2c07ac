import { HubPage } from "~/components/Hub";

export default function UserProfilingHub() {
  return <HubPage />;
}
