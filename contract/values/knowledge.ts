/** The knowledge contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/knowledge.ts). */

/** URL statuses in the spec's list order. */
export const URL_STATUSES = [
  "pending_review",
  "pending_sitemap_generation",
  "sitemap_generated",
  "to_be_indexed",
  "sent_for_indexing",
  "indexed",
  "to_be_skipped",
  "sent_for_skipping",
  "skipped",
  "to_be_deleted",
  "sent_for_deletion",
  "deleted",
  "failed_to_index",
  "failed_to_delete",
  "failed_to_skip",
] as const;

/** What a user may ask for (Index / Force Index, Skip, Delete). */
export const REQUESTABLE_STATUSES = ["to_be_indexed", "to_be_skipped", "to_be_deleted"] as const;

export const REVIEW_STATUSES = ["new", "removed", "changed", "unchanged", "reviewed"] as const;

export const SCAN_MODES = ["full_website", "few_urls"] as const;

export const DEFAULT_TAGS = ["Development", "Staged", "Production"] as const;

export const DEFAULT_REFRESH_DAYS = 30;

/** Counts under a search or review filter stop at this many matches (`total_is_capped`). */
export const URL_COUNT_CAP = 2_000;

export const URL_ORDER_COLUMNS = [
  "url",
  "status",
  "title",
  "refresh_days",
  "indexed_at",
  "created_at",
  "updated_at",
] as const;

export const STATUS_COLOURS: Record<
  (typeof URL_STATUSES)[number],
  "warning" | "info" | "secondary" | "success" | "default" | "error"
> = {
  pending_review: "warning",
  to_be_indexed: "warning",
  pending_sitemap_generation: "info",
  sent_for_indexing: "info",
  sent_for_skipping: "info",
  to_be_deleted: "info",
  sent_for_deletion: "info",
  sitemap_generated: "secondary",
  indexed: "success",
  to_be_skipped: "default",
  skipped: "default",
  deleted: "error",
  failed_to_index: "error",
  failed_to_delete: "error",
  failed_to_skip: "error",
};

/** Display colours of the file statuses URLs do not have (the others share the URL statuses' colours). */
export const FILE_STATUS_COLOURS: Record<string, "info" | "error"> = {
  pending_upload: "info",
  failed_to_upload: "error",
};
