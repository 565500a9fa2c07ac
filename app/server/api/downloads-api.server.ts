import { DownloadLink, LatestFiles } from "@contract";
import type { ApiClient } from "./client.server";

export const downloadsApi = {
  latest: async (api: ApiClient, appId: number) =>
    (await api.get(LatestFiles, "/v1/admin_downloads/latest_files", { app_id: appId })).files,
  link: (api: ApiClient, fileKey: string) =>
    api.post(DownloadLink, "/v1/admin_downloads/download", { file_key: fileKey }),
};
