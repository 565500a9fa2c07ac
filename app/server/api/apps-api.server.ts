import {
  AppsList,
  AppUpdateResult,
  ClientApp,
  ExportFiles,
  ExportResult,
  ImportPreview,
  ImportResult,
  UploadedFiles,
  type AppInput,
} from "@contract";
import type { ApiClient } from "./client.server";

/** The spec's client search helper sends its term as `saerch`; callers just say `search`. */
export const listActiveApps = async (api: ApiClient, search?: string) =>
  (await api.get(AppsList, "/v1/apps", { status: "active", saerch: search })).apps;

export const appsApi = {
  create: (api: ApiClient, input: AppInput) => api.post(ClientApp, "/v1/apps", input),
  update: async (api: ApiClient, appId: number, input: AppInput) =>
    (await api.put(AppUpdateResult, `/v1/apps/${appId}`, input)).response,
  /** Uploads logo files (`files[]`); answers their URLs. */
  uploadLogos: async (api: ApiClient, files: File[]) => {
    const form = new FormData();
    for (const file of files) form.append("files[]", file);
    return api.post(UploadedFiles, "/v1/apps/logo_upload", form);
  },
  exportApp: (api: ApiClient, appId: number) => api.post(ExportResult, `/v1/apps/${appId}/exports/export`),
  exportFiles: async (api: ApiClient) => (await api.get(ExportFiles, "/v1/export_files")).files,
  importFromFile: (api: ApiClient, fileName: string) =>
    api.post(ImportResult, "/v1/import_from_file", { file_name: fileName }),
  /** What importing the file would change in the client it names, if that client exists; writes nothing. */
  previewImport: (api: ApiClient, fileName: string) =>
    api.post(ImportPreview, "/v1/import_from_file/preview", { file_name: fileName }),
};
