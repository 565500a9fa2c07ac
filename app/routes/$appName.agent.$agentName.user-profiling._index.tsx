import { HubPage, hubMeta } from "~/components/Hub";

export default function UserProfilingHub() {
  return <HubPage />;
}

export const meta = hubMeta;
