import { HubPage, hubMeta } from "~/components/Hub";

export default function PersonalizationHub() {
  return <HubPage />;
}

export const meta = hubMeta;
