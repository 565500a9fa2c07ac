import { AppearanceDiff, AppearanceResponse, AppearanceSaved, AppearanceUpload } from "../../../contract";
import type { ApiClient } from "./client.server";

const query = (appId: number, triggerPoint: string) => `appId=${appId}&triggerPoint=${encodeURIComponent(triggerPoint)}`;

export const appearanceApi = {
  get: (api: ApiClient, appId: number, triggerPoint: string) => api.get(AppearanceResponse, `/v1/appearances?${query(appId, triggerPoint)}`),
  save: (api: ApiClient, appId: number, triggerPoint: string, data: Record<string, unknown>, targetEnv: "stage" | "production" = "stage") =>
    api.put(AppearanceSaved, `/v1/appearances?${query(appId, triggerPoint)}`, { data, targetEnv }),
  diff: (api: ApiClient, appId: number, triggerPoint: string) => api.get(AppearanceDiff, `/v1/appearances/get_diff?${query(appId, triggerPoint)}`),
  upload: (api: ApiClient, appId: number, triggerPoint: string, file: File) => {
    const form = new FormData();
    form.append("file", file);
    return api.call(AppearanceUpload, "POST", `/v1/appearances/upload_file?${query(appId, triggerPoint)}`, { body: form });
  },
};
