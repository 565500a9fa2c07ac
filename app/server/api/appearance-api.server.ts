import {
  AppearanceDiff,
  AppearanceResponse,
  AppearanceSaved,
  AppearanceUpload,
  type AppearancePutBody,
} from "@contract";
import type { ApiClient } from "./client.server";

const query = (appId: number, triggerPoint: string) =>
  `appId=${appId}&triggerPoint=${encodeURIComponent(triggerPoint)}`;

export const appearanceApi = {
  get: (api: ApiClient, appId: number, triggerPoint: string) =>
    api.get(AppearanceResponse, `/v1/appearances?${query(appId, triggerPoint)}`),
  /** Saves to stage, or with targetEnv production pushes the values. */
  save: (
    api: ApiClient,
    appId: number,
    triggerPoint: string,
    value: Record<string, unknown>,
    targetEnv?: "production",
  ) =>
    api.put(AppearanceSaved, `/v1/appearances?${query(appId, triggerPoint)}`, {
      appearance: { value },
      ...(targetEnv ? { targetEnv } : {}),
    } satisfies AppearancePutBody),
  /** Production's values beside stage's; `pending` values (about to be pushed) are laid over stage's. */
  diff: (api: ApiClient, appId: number, triggerPoint: string, pending: Record<string, unknown> = {}) =>
    api.post(AppearanceDiff, `/v1/appearances/get_diff?${query(appId, triggerPoint)}`, {
      appearance: { value: pending },
    }),
  upload: (api: ApiClient, appId: number, triggerPoint: string, file: File) => {
    const form = new FormData();
    form.append("file", file);
    return api.call(AppearanceUpload, "POST", `/v1/appearances/upload_file?${query(appId, triggerPoint)}`, {
      body: form,
    });
  },
};
