import { HubPage, hubMeta } from "~/components/Hub";

export default function KnowledgeStoreHub() {
  return <HubPage />;
}

export const meta = hubMeta;
