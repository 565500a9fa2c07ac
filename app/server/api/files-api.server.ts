import { CompleteUploadResult, FileChunks, FilesList, KnowledgeFile, OkResult, PresignResult } from "@contract";
import type { ApiClient } from "./client.server";

/** A client's knowledge files (PDFs). */
export const filesApi = {
  list: (api: ApiClient, appId: number, search?: string, page?: { page: number; pageSize: number }) =>
    api.get(FilesList, "/v1/files", { app_id: appId, search, page: page?.page, page_size: page?.pageSize }),
  /** One file of the client's, or undefined when it has none of this id. */
  one: async (api: ApiClient, appId: number, fileId: number) =>
    (await api.get(FilesList, "/v1/files", { app_id: appId, id: fileId })).files[0],
  setTags: (api: ApiClient, appId: number, fileId: number, tags: string[]) =>
    api.call(KnowledgeFile, "PATCH", `/v1/files/${fileId}`, { body: { app_id: appId, tags } }),
  remove: (api: ApiClient, appId: number, fileId: number) =>
    api.call(OkResult, "DELETE", `/v1/files/${fileId}`, { query: { app_id: appId } }),
  /** Registers files to upload; each answer carries the link its bytes are PUT to. */
  presign: (api: ApiClient, appId: number, userId: number, fileNames: string[]) =>
    api.call(PresignResult, "POST", "/v1/files/presigned_urls", {
      query: { app_id: appId, user_id: userId },
      body: { file_names: fileNames },
    }),
  completeUpload: (api: ApiClient, urlId: number, s3Path: string) =>
    api.post(CompleteUploadResult, "/v1/files/complete_upload", { url_id: urlId, s3_path: s3Path }),
  /** One page of a file's chunks, in order, with how many it holds in all. */
  chunks: (api: ApiClient, appId: number, fileId: number, page: { page: number; pageSize: number }) =>
    api.get(FileChunks, `/v1/files/${fileId}/chunks`, { app_id: appId, page: page.page, page_size: page.pageSize }),
};
