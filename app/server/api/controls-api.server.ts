import {
  AiProbingsList,
  AiProbingsSaved,
  ControlsList,
  ControlsSaved,
  ThresholdEvidence,
  type AiProbingsBody,
  type AiProbingType,
  type ControlInput,
  type ControlType,
} from "@contract";
import type { ApiClient } from "./client.server";

/** The spec's section 7 calls for controls and smart probing (an empty trigger point is Default and goes unsent). */
export const controlsApi = {
  list: (api: ApiClient, appId: number, triggerPoint: string, types: readonly ControlType[]) =>
    api.get(ControlsList, "/v1/controls", { app_id: appId, trigger_point: triggerPoint, types: [...types] }),
  save: (api: ApiClient, appId: number, controls: ControlInput[]) =>
    api.call(ControlsSaved, "PUT", "/v1/controls", { query: { app_id: appId }, body: { app_id: appId, controls } }),
  listProbings: (api: ApiClient, appId: number, triggerPoint: string, types: readonly AiProbingType[]) =>
    api.get(AiProbingsList, `/v1/apps/${appId}/ai_probings`, { trigger_point: triggerPoint, types: [...types] }),
  saveProbings: (api: ApiClient, appId: number, aiProbings: AiProbingsBody["ai_probings"]) =>
    api.call(AiProbingsSaved, "PUT", `/v1/apps/${appId}/ai_probings`, {
      body: { app_id: appId, ai_probings: aiProbings },
    }),
  /** What each Minimum Retrieval Confidence would do to the trigger point's replayed questions (the Quality Check's evidence). */
  thresholdEvidence: (api: ApiClient, appId: number, triggerPoint: string) =>
    api.get(ThresholdEvidence, `/v1/apps/${appId}/quality_check/evidence`, { trigger_point: triggerPoint }),
};
