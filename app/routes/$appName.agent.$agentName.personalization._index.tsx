import { HubPage } from "~/components/Hub";

export default function PersonalizationHub() {
  return <HubPage />;
}
