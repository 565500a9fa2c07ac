import { z } from "zod";
import { CREDENTIALS_IN_ADDRESS, hasNoCredentials, Id, MAX_URL_LENGTH, pageNumber, URL_TOO_LONG } from "./common";
import { URL_STATUSES, REQUESTABLE_STATUSES, REVIEW_STATUSES, SCAN_MODES, URL_ORDER_COLUMNS } from "./values/knowledge";
export * from "./values/knowledge";
export const UrlStatus = z.enum(URL_STATUSES);
export type UrlStatus = z.infer<typeof UrlStatus>;
export const ReviewStatus = z.enum(REVIEW_STATUSES);
export type ReviewStatus = z.infer<typeof ReviewStatus>;

export const Website = z.object({
  id: z.number().int(),
  app_id: z.number().int(),
  url: z.string(),
  urls_count: z.number().int(),
  site_map: z.enum(SCAN_MODES),
  status: z.string(),
  enabled: z.boolean(),
  tags: z.array(z.string()),
  skip_patterns: z.array(z.string()),
  allowed_patterns: z.array(z.string()),
  user: z.object({ name: z.string() }).nullable(),
  sitemap_diff: z.boolean(),
  updated_at: z.string(),
  last_error: z.string().nullable(),
  /**
   * What the last refresh did (pages requested for indexing, by hand or when their refresh days
   * came): when it began; pages indexed before that were checked, of which unchanged (not fetched
   * or the same text), changed (re-indexed) and gone; pages indexed for the first time; failures.
   */
  last_refresh: z
    .object({
      started_at: z.string(),
      checked: z.number().int(),
      unchanged: z.number().int(),
      changed: z.number().int(),
      gone: z.number().int(),
      new: z.number().int(),
      failed: z.number().int(),
    })
    .nullable(),
  /**
   * The last Refresh Sitemap: when it was asked for; once the sitemaps were read, when, and how
   * many pages it marked new, removed and changed for review, and how many were unchanged; or why
   * the sitemaps could not be read.
   */
  last_sitemap_refresh: z
    .object({
      asked_at: z.string(),
      finished_at: z.string().nullable(),
      new: z.number().int(),
      removed: z.number().int(),
      changed: z.number().int(),
      unchanged: z.number().int(),
      error: z.string().nullable(),
    })
    .nullable(),
});
export type Website = z.infer<typeof Website>;

export const WebsitesQuery = z.object({
  app_name: z.string().optional(),
  page: pageNumber(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
  query: z.string().trim().max(200).optional(),
});
export const WebsitesList = z.object({
  websites: z.array(Website),
  total_pages: z.number().int(),
  total_count: z.number().int(),
  page_size: z.number().int(),
});
export type WebsitesList = z.infer<typeof WebsitesList>;

const pattern = z.string().trim().min(1).max(200);
export const WebsiteInput = z.object({
  id: Id.optional(),
  app_id: Id,
  url: z
    .string({ error: "This field is required" })
    .trim()
    .min(1, "This string is required")
    .max(MAX_URL_LENGTH, URL_TOO_LONG)
    .pipe(z.url({ protocol: /^https?$/, error: "Enter a full http(s) address" }))
    .refine(hasNoCredentials, CREDENTIALS_IN_ADDRESS),
  site_map: z.enum(SCAN_MODES, {
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? "This field is required"
        : `Choose ${SCAN_MODES.join(" or ")}`,
  }),
  enabled: z.boolean().default(true),
  tags: z.array(z.string().trim().min(1).max(50)).max(20).default([]),
  skip_patterns: z.array(pattern).max(100).default([]),
  allowed_patterns: z.array(pattern).max(100).default([]),
  /** For few_urls: the addresses to take (default: the website URL itself). */
  urls: z
    .array(
      z
        .string()
        .trim()
        .max(MAX_URL_LENGTH, URL_TOO_LONG)
        .pipe(z.url({ protocol: /^https?$/ }))
        .refine(hasNoCredentials, CREDENTIALS_IN_ADDRESS),
    )
    .max(1000)
    .optional(),
});
export type WebsiteInput = z.input<typeof WebsiteInput>;
export const WebsitesUpsertBody = z.object({ websites: z.array(WebsiteInput).min(1).max(100) });
export const WebsitesUpsertResult = z.object({ websites: z.array(Website), message: z.string() });

export const UpdateStatusBody = z.object({
  status: z.enum(REQUESTABLE_STATUSES, { error: `status must be one of ${REQUESTABLE_STATUSES.join(", ")}` }),
  url_ids: z.array(Id).max(10_000).optional(),
  force_index: z.boolean().optional(),
});
export const UpdateStatusResult = z.object({
  message: z.string(),
  updated: z.number().int(),
  /** URLs of the request left as they are because they are being processed now (sent for indexing, skipping or deletion). */
  in_progress: z.number().int(),
});

const csv = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) =>
      typeof value === "string"
        ? value
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : value,
    z.array(item).optional(),
  );
export const UrlsQuery = z.object({
  page: pageNumber(0),
  page_size: z.coerce.number().int().min(1).max(10_000).default(100),
  order_by: z.enum(URL_ORDER_COLUMNS).default("url"),
  order: z.enum(["asc", "desc"]).default("asc"),
  search: z.string().trim().max(500).optional(),
  /** Exactly this address (a search for a home page is a part of every address of its site). */
  url: z.string().trim().max(MAX_URL_LENGTH, URL_TOO_LONG).optional(),
  status: csv(UrlStatus),
  sitemap_refresh_review_status: csv(ReviewStatus),
});
export type UrlsQuery = z.input<typeof UrlsQuery>;

export const UrlRow = z.object({
  id: z.number().int(),
  url: z.string(),
  title: z.string(),
  status: UrlStatus,
  sitemap_refresh_review_status: ReviewStatus.nullable(),
  refresh_days: z.number().int().nullable(),
  metadata: z
    .object({ internal_url: z.string().optional(), error_message: z.string().optional() })
    .catchall(z.unknown()),
  indexed_at: z.string().nullable(),
  /** When the page was last checked for changes (fetched, answered 304, or skipped by its sitemap's lastmod). */
  checked_at: z.string().nullable(),
  /** When the page's text last changed (its passages were written). */
  changed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  website_id: z.number().int(),
  website_url: z.string(),
  source_id: z.string().nullable(),
});
export type UrlRow = z.infer<typeof UrlRow>;

export const UrlsList = z.object({
  data: z.array(UrlRow),
  count: z.number().int(),
  total_count: z.number().int(),
  total: z.number().int(),
  current_page: z.number().int(),
  total_pages: z.number().int(),
  default_refresh_day: z.number().int(),
  status_counts: z.record(z.string(), z.number().int()),
  /** True when a search or review filter matched more than 2,000 URLs: counts stop there. */
  total_is_capped: z.boolean(),
});
export type UrlsList = z.infer<typeof UrlsList>;

export const StatusCounts = z.object({
  status_counts: z.record(z.string(), z.number().int()),
  total_count: z.number().int(),
});

/** An http(s) address as '+ Links' takes one. */
export const LinkAddress = z.url({ protocol: /^https?$/ });
export const NOT_A_LINK_ADDRESS = "Enter full http(s) addresses";

export const BulkCreateBody = z.object({
  // Each line's form is checked by bulk_create with its other problems (its host, a private
  // address), so that one answer names every line to fix.
  urls: z
    .array(z.string().trim().min(1).max(MAX_URL_LENGTH, URL_TOO_LONG))
    .min(1, "Enter at least one link")
    .max(5000, "Add at most 5,000 links at a time"),
});
export const OkResult = z.object({ message: z.string(), created: z.number().int().optional() });
/** bulk_create: how many pages were added, and how many of those given the website already had. */
export const BulkCreateResult = OkResult.extend({ existing: z.number().int().optional() });

export const RefreshDaysBody = z.object({
  url: z.object({
    refresh_days: z
      .number({ error: "Refresh days must be between 1 and 365." })
      .int("Refresh days must be between 1 and 365.")
      .min(1, "Refresh days must be between 1 and 365.")
      .max(365, "Refresh days must be between 1 and 365."),
  }),
});

/** `appId` may come as a number or as its digits in text (both are seen from clients); it must be the path's. */
export const CachedChunksBody = z.object({
  appId: z
    .union(
      [
        Id,
        z
          .string()
          .trim()
          .regex(/^\d{1,10}$/, "Not a valid id")
          .transform(Number)
          .pipe(Id),
      ],
      { error: "appId must be the client's id" },
    )
    .optional(),
  url: z
    .string({ error: "Say which URL" })
    .trim()
    .min(1, "Say which URL")
    .max(4096, "URLs are at most 4,096 characters"),
});
export const CachedChunks = z.object({
  url: z.string(),
  chunks: z.array(z.object({ position: z.number().int(), heading_path: z.array(z.string()), text: z.string() })),
});

export const SitemapRefreshBody = z.object({ id: Id });
