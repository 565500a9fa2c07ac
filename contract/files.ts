import { z } from "zod";
import { Id, IdParam, optionalPageNumber, optionalPageSize } from "./common";
import { FILE_TAG_REFUSAL, FILE_TAGS, FILE_STATUSES, MAX_FILES_PER_UPLOAD } from "./values/files";
export * from "./values/files";
export const FileTag = z.enum(FILE_TAGS, { error: FILE_TAG_REFUSAL });

export const KnowledgeFile = z.object({
  id: z.number().int(),
  app_id: z.number().int(),
  file_name: z.string(),
  /** A signed link that shows the PDF for a while ("" until the bytes are in). */
  url: z.string(),
  status: z.enum(FILE_STATUSES),
  tags: z.array(FileTag),
  /** The uploader's name, or their address when they have no name. */
  added_by: z.string().nullable(),
  size: z.number().int().nullable(),
  page_count: z.number().int().nullable(),
  title: z.string(),
  error_message: z.string().nullable(),
  chunks_count: z.number().int(),
  indexed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type KnowledgeFile = z.infer<typeof KnowledgeFile>;

export const FilesQuery = z.object({
  app_id: IdParam,
  /** Part of a file name, any case. */
  search: z.string().trim().max(200).optional(),
  /** One file of the client's, by its id (none when it has no such file). */
  id: IdParam.optional(),
  /** One page of the list (from 1) when given, with `page_size` files; every file otherwise. */
  page: optionalPageNumber(),
  page_size: optionalPageSize(100, "files"),
});
export const FilesList = z.object({
  files: z.array(KnowledgeFile),
  /** How many files the search finds in all (the list is one page of them when a page was asked for). */
  total: z.number().int(),
});
export type FilesList = z.infer<typeof FilesList>;

export const FileTagsBody = z.object({
  app_id: Id,
  tags: z.array(FileTag, { error: FILE_TAG_REFUSAL }).max(10),
});

export const AppIdQuery = z.object({ app_id: IdParam });

export const PresignQuery = z.object({
  app_id: IdParam,
  /** Sent by the console for the record; the uploader is always the signed-in caller. */
  user_id: IdParam.optional(),
});
export const PresignBody = z.object({
  file_names: z
    .array(z.string().trim().min(1, "A file name is required").max(255, "File names are at most 255 characters"), {
      error: "Choose at least one PDF file",
    })
    .min(1, "Choose at least one PDF file")
    .max(MAX_FILES_PER_UPLOAD, `Upload at most ${MAX_FILES_PER_UPLOAD} files at a time`),
});
export const PresignedUpload = z.object({
  /** PUT the bytes here with Content-Type application/pdf before it expires. */
  url: z.string(),
  url_id: z.number().int(),
  s3_path: z.string(),
  file_name: z.string(),
  expires_at: z.string(),
});
export type PresignedUpload = z.infer<typeof PresignedUpload>;
export const PresignResult = z.object({ presigned_urls: z.array(PresignedUpload) });

export const CompleteUploadBody = z.object({ url_id: Id, s3_path: z.string().min(1).max(1000) });
export const CompleteUploadResult = z.object({ message: z.string(), file: KnowledgeFile });

/** A file of a few thousand pages holds several thousand chunks: the console reads them a page at a time. */
export const MAX_FILE_CHUNKS_PAGE_SIZE = 500;
export const FileChunksQuery = z.object({
  app_id: IdParam,
  /** One page of the file's chunks (from 1) when given, with `page_size` chunks; every chunk otherwise. */
  page: optionalPageNumber(),
  page_size: optionalPageSize(MAX_FILE_CHUNKS_PAGE_SIZE, "chunks"),
});
export const FileChunks = z.object({
  file_name: z.string(),
  chunks: z.array(z.object({ position: z.number().int(), heading_path: z.array(z.string()), text: z.string() })),
  /** How many chunks the file holds in all (`chunks` is one page of them when a page was asked for). */
  total: z.number().int(),
});
export type FileChunks = z.infer<typeof FileChunks>;
