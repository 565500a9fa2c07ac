import { HubPage } from "~/components/Hub";

export default function ControlsHub() {
  return <HubPage />;
}
