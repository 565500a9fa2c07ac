import { Agent, AgentLogoUpload, type AgentInput } from "@contract";
import type { ApiClient } from "./client.server";

export const agentsApi = {
  get: (api: ApiClient, appId: number, agentId: number) => api.get(Agent, `/v1/apps/${appId}/agents/${agentId}`),
  /** Creates (no id) or updates (with id). */
  save: (api: ApiClient, input: AgentInput) => api.post(Agent, `/v1/apps/${input.app_id}/agents/update_agents`, input),
  uploadLogo: async (api: ApiClient, appId: number, file: File) => {
    const form = new FormData();
    form.append("file", file);
    return (await api.post(AgentLogoUpload, `/v1/apps/${appId}/agents/logo_upload`, form)).url;
  },
};
