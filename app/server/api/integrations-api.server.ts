import { IntegrationsList, IntegrationsSaved, type IntegrationsUpsertBody } from "@contract";
import type { ApiClient } from "./client.server";

/** The spec's section 7 calls for integrations. */
export const integrationsApi = {
  list: (api: ApiClient, appId: number) => api.get(IntegrationsList, `/v1/apps/${appId}/integrations`),
  save: (api: ApiClient, appId: number, integrations: IntegrationsUpsertBody["integrations"]) =>
    api.post(IntegrationsSaved, `/v1/apps/${appId}/integrations/upsert`, { integrations }),
};
