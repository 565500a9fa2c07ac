import {
  DeletedResult,
  FinetuningsList,
  FinetuningsSaved,
  InputPromptsList,
  InputPromptsSaved,
  OkResult,
  type FinetuningsUpsertBody,
  type InputPromptsBody,
} from "@contract";
import type { ApiClient } from "./client.server";

/**
 * The spec's section 7 calls for input prompts and AI finetuning. An empty trigger point is
 * Default and goes unsent (the API's default).
 */
export const tuningApi = {
  inputPrompts: async (api: ApiClient, appId: number, triggerPoint: string) =>
    (await api.get(InputPromptsList, `/v1/apps/${appId}/input_prompts`, { trigger_point: triggerPoint })).input_prompts,
  saveInputPrompts: (api: ApiClient, appId: number, inputPrompts: InputPromptsBody["input_prompts"]) =>
    api.put(InputPromptsSaved, `/v1/apps/${appId}/input_prompts`, { input_prompts: inputPrompts }),
  deleteInputPrompt: (api: ApiClient, appId: number, promptId: number) =>
    api.call(OkResult, "DELETE", `/v1/apps/${appId}/input_prompts/${promptId}`),

  finetunings: async (api: ApiClient, appId: number) =>
    (await api.get(FinetuningsList, "/v1/controls/list_finetunings", { app_id: appId })).finetunings,
  /** One save for every table: new and changed rows upserted, rows marked `deleted` removed. */
  saveFinetunings: (api: ApiClient, appId: number, finetunings: FinetuningsUpsertBody["finetunings"]) =>
    api.post(FinetuningsSaved, "/v1/controls/upsert_finetunings", { app_id: appId, finetunings }),
  bulkDeleteFinetunings: (api: ApiClient, appId: number, ids: number[]) =>
    api.call(DeletedResult, "DELETE", "/v1/controls/bulk_delete_finetunings", { body: { app_id: appId, ids } }),
};
