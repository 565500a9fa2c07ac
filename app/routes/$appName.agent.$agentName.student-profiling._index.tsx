import { HubPage } from "~/components/Hub";

export default function StudentProfilingHub() {
  return <HubPage />;
}
