import { HubPage, hubMeta } from "~/components/Hub";

export default function ControlsHub() {
  return <HubPage />;
}

export const meta = hubMeta;
