import {
  ConfigDetailsList,
  ConfigDetailsSaved,
  ImportConfigResult,
  ProgramRecordsList,
  RecommendationBuildResult,
  SuccessResult,
  type ConfigDetailsBody,
  type ModelType,
} from "@contract";
import type { ApiClient } from "./client.server";

const base = (appId: number) => `/v1/apps/${appId}/personalisation_config_details`;

/** The spec's section 7 calls for the profile data models and the recommendation model. */
export const personalisationApi = {
  fields: async (api: ApiClient, appId: number, modelType: ModelType) =>
    (await api.get(ConfigDetailsList, base(appId), { model_type: modelType })).personalisation_config_details,
  /** Creates fields (no id) and updates fields (with id) in one go. */
  saveFields: (api: ApiClient, appId: number, fields: ConfigDetailsBody["personalisation_config_details"]) =>
    api.post(ConfigDetailsSaved, `${base(appId)}/create_and_update`, { personalisation_config_details: fields }),
  deleteField: (api: ApiClient, appId: number, recordId: number) =>
    api.call(SuccessResult, "DELETE", `${base(appId)}/delete_record`, { body: { record_id: recordId } }),
  /** Replaces this client's model of that type with a copy of the other client's. */
  importModel: (api: ApiClient, appId: number, importAppCode: string, modelType: ModelType) =>
    api.post(ImportConfigResult, `${base(appId)}/import_config`, {
      import_app_code: importAppCode,
      model_type: modelType,
    }),
  buildRecommendationModel: (api: ApiClient, appId: number) =>
    api.post(RecommendationBuildResult, `${base(appId)}/recommendation_model_init`, {}),
  programs: (api: ApiClient, appId: number) => api.get(ProgramRecordsList, `${base(appId)}/programs`),
};
