import { HubPage, hubMeta } from "~/components/Hub";

export default function StudentProfilingHub() {
  return <HubPage />;
}

export const meta = hubMeta;
