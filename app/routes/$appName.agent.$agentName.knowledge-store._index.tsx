import { HubPage } from "~/components/Hub";

export default function KnowledgeStoreHub() {
  return <HubPage />;
}
