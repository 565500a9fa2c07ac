import { sql } from "drizzle-orm";
import type { AnswerTrace } from "@contract";
import {
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    /** Stored lower-cased: sign-in compares addresses case-insensitively. */
    email: text("email").notNull(),
    name: text("name").notNull().default(""),
    userType: text("user_type").notNull().default("user"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

/**
 * Opaque refresh tokens, stored only as a SHA-256 hash. Each sign-in starts a family; every
 * refresh marks the presented token used and issues the next one in the same family, so
 * presenting a used token again reveals theft and revokes the whole family.
 */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    familyId: uuid("family_id").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("refresh_tokens_hash_key").on(t.tokenHash), index("refresh_tokens_family_idx").on(t.familyId)],
);

export const clientApps = pgTable(
  "client_apps",
  {
    id: serial("id").primaryKey(),
    clientName: text("client_name").notNull(),
    primaryWebsite: text("primary_website").notNull().default(""),
    logoUrl: text("logo_url"),
    country: text("country").notNull().default(""),
    market: text("market").notNull().default(""),
    projectUrl: text("project_url").notNull().default(""),
    notes: text("notes").notNull().default(""),
    urlCode: text("url_code").notNull(),
    copyMarket: text("copy_market").notNull().default(""),
    clientType: text("client_type").notNull().default(""),
    onboardExistingClient: boolean("onboard_existing_client").notNull().default(true),
    triggerPoints: jsonb("trigger_points")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    modeEnv: text("mode_env").notNull().default("staging"),
    insyncProdAppId: text("insync_prod_app_id"),
    status: text("status").notNull().default("active"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("client_apps_url_code_key").on(t.urlCode)],
);

/**
 * A user's role inside one client app (client_user, client_admin, admin, super_admin). The
 * Access Control screen shows memberships, not accounts: `id` names the membership there and
 * `name` is the name this client gave the person, so neither tells a Client Admin how old the
 * account is or what it is called elsewhere (docs/decisions/032).
 */
export const appUsers = pgTable(
  "app_users",
  {
    id: serial("id").notNull(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").notNull().default("client_user"),
    name: text("name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.appId, t.userId] }),
    uniqueIndex("app_users_id_key").on(t.id),
    index("app_users_user_idx").on(t.userId),
  ],
);

export const agents = pgTable(
  "agents",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    agentType: text("agent_type").notNull().default("enrollment"),
    siteCode: text("site_code").notNull().default(""),
    logo: text("logo"),
    url: text("url").notNull().default(""),
    status: text("status").notNull().default("active"),
    modeEnv: text("mode_env").notNull().default("staging"),
    metadata: jsonb("metadata")
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("agents_app_idx").on(t.appId), uniqueIndex("agents_app_site_code_key").on(t.appId, t.siteCode)],
);

/**
 * Personality and guardrail texts per client and trigger point (agent site code): the AI
 * personality guidelines, sensitive and no-go topics. One row per (app, trigger point, name).
 */
export const controls = pgTable(
  "controls",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    internalName: text("internal_name").notNull(),
    displayName: text("display_name").notNull().default(""),
    promptInputRaw: text("prompt_input_raw").notNull().default(""),
    /** '' is the client-wide default. */
    triggerPoint: text("trigger_point").notNull().default(""),
    metadata: jsonb("metadata")
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("controls_app_trigger_name_key").on(t.appId, t.triggerPoint, t.internalName)],
);

/** Files the system wrote for a client (exports, later reports), listed in Admin Downloads. */
export const storedFiles = pgTable(
  "stored_files",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id").references(() => clientApps.id, { onDelete: "set null" }),
    fileType: text("file_type").notNull(),
    fileName: text("file_name").notNull(),
    storageKey: text("storage_key").notNull(),
    size: integer("size").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("stored_files_app_type_idx").on(t.appId, t.fileType, t.createdAt),
    uniqueIndex("stored_files_key").on(t.storageKey),
  ],
);

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** A website's last refresh: when it was requested, then its pages' outcomes as the jobs finish them. */
export interface RefreshRecord {
  started_at: string;
  checked: number;
  unchanged: number;
  changed: number;
  gone: number;
  new: number;
  failed: number;
}

/**
 * A website's last Refresh Sitemap: when it was asked for, then when its sitemaps were read and
 * how many pages it marked for review (or why it could not read them).
 */
export interface SitemapRefreshRecord {
  asked_at: string;
  finished_at: string | null;
  new: number;
  removed: number;
  changed: number;
  unchanged: number;
  error: string | null;
}

/** A website of a client's knowledge store: crawled through its sitemaps, or a few given URLs. */

export const websites = pgTable(
  "websites",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    siteMap: text("site_map").notNull().default("full_website"),
    status: text("status").notNull().default("pending_sitemap_generation"),
    enabled: boolean("enabled").notNull().default(true),
    tags: jsonb("tags")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    skipPatterns: jsonb("skip_patterns")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    allowedPatterns: jsonb("allowed_patterns")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The URLs given for a few_urls website. */
    seedUrls: jsonb("seed_urls")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Sitemaps found at the last discovery. */
    sitemaps: jsonb("sitemaps")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    addedBy: integer("added_by").references(() => users.id, { onDelete: "set null" }),
    /** What the last re-indexing run did (refresh-record.ts): when it began and its pages' outcomes. */
    lastRefresh: jsonb("last_refresh").$type<RefreshRecord>(),
    lastSitemapRefresh: jsonb("last_sitemap_refresh").$type<SitemapRefreshRecord>(),
    urlsCount: integer("urls_count").notNull().default(0),
    sitemapDiff: boolean("sitemap_diff").notNull().default(false),
    lastError: text("last_error"),
    /** The worker discovering its sitemaps (pending_sitemap_generation); see worker_leases. */
    claimedBy: uuid("claimed_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("websites_app_idx").on(t.appId, t.id)],
);

/** One page of a website and where it is in the index pipeline. */
export const urls = pgTable(
  "urls",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    websiteId: integer("website_id")
      .notNull()
      .references(() => websites.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    title: text("title").notNull().default(""),
    status: text("status").notNull().default("pending_review"),
    sitemapRefreshReviewStatus: text("sitemap_refresh_review_status"),
    /** Null means the default (30 days). */
    refreshDays: integer("refresh_days"),
    metadata: jsonb("metadata")
      .$type<{ internal_url?: string; error_message?: string; [key: string]: unknown }>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    contentHash: text("content_hash"),
    /** The sitemap's lastmod, to tell changed pages at a sitemap refresh. */
    lastmod: text("lastmod"),
    /**
     * Whether the website's sitemaps listed the page when last read: a refresh marks a page
     * `removed` only when the sitemaps stop listing it, never a link given by hand.
     */
    inSitemap: boolean("in_sitemap").notNull().default(false),
    indexedAt: timestamp("indexed_at", { withTimezone: true }),
    /** The page's validators as it last answered, sent back on the next fetch (If-None-Match, If-Modified-Since). */
    etag: text("etag"),
    lastModified: text("last_modified"),
    /** When the page was last checked (fetched, answered 304, or skipped by its sitemap lastmod) … */
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    /** … and when its text last changed (its chunks were written). */
    changedAt: timestamp("changed_at", { withTimezone: true }),
    sourceId: text("source_id"),
    /** The worker holding the URL while it is sent_for_*; see worker_leases. */
    claimedBy: uuid("claimed_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Also what a website's URL list sorted by address reads (a second index on the same columns was dropped in 0014).
    uniqueIndex("urls_website_url_key").on(t.websiteId, t.url),
    // Only URLs in flight: tiny, and what the recovery sweep reads every few seconds.
    index("urls_in_flight_idx")
      .on(t.claimedBy)
      .where(sql`${t.status} in ('sent_for_indexing', 'sent_for_skipping', 'sent_for_deletion')`),
    index("urls_filter_idx").on(t.appId, t.websiteId, t.status, t.sitemapRefreshReviewStatus, t.url),
    index("urls_app_status_idx").on(t.appId, t.status, t.url),
    index("urls_app_url_idx").on(t.appId, t.url),
    // Only URLs awaiting or after a sitemap review: small, and what the review filter counts.
    index("urls_review_idx")
      .on(t.websiteId, t.sitemapRefreshReviewStatus, t.status)
      .where(sql`${t.sitemapRefreshReviewStatus} is not null`),
    index("urls_url_trgm_idx").using("gin", sql`${t.url} gin_trgm_ops`),
  ],
);

/**
 * A PDF uploaded to a client's knowledge store. The browser PUTs the bytes to `upload_key` through
 * a signed link; complete_upload checks them and moves them to `storage_key`, which no link can
 * write, so what gets indexed is what was checked.
 */
export const knowledgeFiles = pgTable(
  "files",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    uploadKey: text("upload_key").notNull(),
    storageKey: text("storage_key"),
    size: integer("size"),
    pageCount: integer("page_count"),
    title: text("title").notNull().default(""),
    status: text("status").notNull().default("pending_upload"),
    tags: jsonb("tags")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    addedBy: integer("added_by").references(() => users.id, { onDelete: "set null" }),
    errorMessage: text("error_message"),
    contentHash: text("content_hash"),
    indexedAt: timestamp("indexed_at", { withTimezone: true }),
    /**
     * The worker indexing the file while it is sent_for_indexing (see worker_leases), or the request
     * checking its upload while it is pending_upload (a double submit waits for that one).
     */
    claimedBy: uuid("claimed_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("files_app_idx").on(t.appId, t.id),
    uniqueIndex("files_upload_key").on(t.uploadKey),
    index("files_in_flight_idx")
      .on(t.claimedBy)
      .where(sql`${t.status} = 'sent_for_indexing'`),
  ],
);

/**
 * One row per process that handles jobs, renewed while it runs. Work claimed by a worker whose
 * lease lapsed (a killed process) is taken back by the others; a live worker's work never is.
 * Times come from the database's clock, so processes on machines with skewed clocks agree.
 */
export const workerLeases = pgTable("worker_leases", {
  workerId: uuid("worker_id").primaryKey(),
  /** Host name and process id, for an operator reading the table. */
  process: text("process").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/** Retrieval passages of an indexed page or uploaded file, searchable by Postgres full-text search. */
export const chunks = pgTable(
  "chunks",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    /** Exactly one of url_id and file_id says where the passage comes from. */
    urlId: integer("url_id").references(() => urls.id, { onDelete: "cascade" }),
    fileId: integer("file_id").references(() => knowledgeFiles.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    headingPath: jsonb("heading_path")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    text: text("text").notNull(),
    /**
     * The text's lexemes, made by api/knowledge/words/lexemes.ts where the chunk is made; a row inserted
     * without one gets Postgres' own to_tsvector('english', text) from a trigger (migration 0013), and is
     * marked stale to have ours made again (migration 0055).
     */
    tsv: tsvector("tsv"),
    /**
     * The tsvector was made before words of scripts written without spaces (Chinese, Japanese, Thai)
     * were cut apart: the scheduled recovery makes it again from the text (api/knowledge/index/relexeme.ts).
     */
    lexemesStale: boolean("lexemes_stale").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index("chunks_url_idx").on(t.urlId, t.position),
    index("chunks_file_idx").on(t.fileId, t.position),
    check("chunks_one_source", sql`num_nonnulls(${t.urlId}, ${t.fileId}) = 1`),
    index("chunks_app_idx").on(t.appId),
    index("chunks_tsv_idx").using("gin", t.tsv),
    // The title and heading words alone (their weight, B): retrieval's field pool (api/knowledge/index/search.ts).
    index("chunks_fields_idx").using("gin", sql`ts_filter(${t.tsv}, '{b}'::"char"[])`),
    index("chunks_lexemes_stale_idx")
      .on(t.id)
      .where(sql`${t.lexemesStale}`),
  ],
);

/**
 * How many URLs of each website are in each status, kept by statement-level triggers on urls
 * (migration 0003): the status filter's counts and unfiltered totals without counting a million rows.
 */
export const urlStatusCounts = pgTable(
  "url_status_counts",
  {
    websiteId: integer("website_id").notNull(),
    status: text("status").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.status] })],
);

/**
 * The rows of the Sensitive Topics and No-Go Topics lists (up to 8 per list and trigger point):
 * the topic in prompt_input_raw, the disclaimer text or canned response in metadata.disclaimer.
 * `controls` holds one row per (client, trigger point, name), which suits the personality and the
 * quality check but not a list, so list rows live here. Ids come from the controls sequence, so a
 * control's id on the wire (GET/PUT /v1/controls) is unique whichever table holds it.
 */
export const controlTopics = pgTable(
  "control_topics",
  {
    id: integer("id")
      .primaryKey()
      .default(sql`nextval('controls_id_seq')`),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    /** sensitive_topics or no_go_topics. */
    internalName: text("internal_name").notNull(),
    displayName: text("display_name").notNull().default(""),
    promptInputRaw: text("prompt_input_raw").notNull(),
    /** '' is the client-wide default. */
    triggerPoint: text("trigger_point").notNull().default(""),
    metadata: jsonb("metadata")
      .$type<{ disclaimer?: string; [key: string]: unknown }>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // A topic appears once per list: saving the same new topic again updates it (idempotent saves).
    uniqueIndex("control_topics_topic_key").on(
      t.appId,
      t.triggerPoint,
      t.internalName,
      sql`lower(${t.promptInputRaw})`,
    ),
  ],
);

/** Smart probing texts ('Topics For Probing', 'Topics to Prob Mapping') per client and trigger point. */
export const aiProbings = pgTable(
  "ai_probings",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    internalName: text("internal_name").notNull(),
    displayName: text("display_name").notNull().default(""),
    promptInputRaw: text("prompt_input_raw").notNull().default(""),
    triggerPoint: text("trigger_point").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("ai_probings_app_trigger_name_key").on(t.appId, t.triggerPoint, t.internalName)],
);

/** Input prompts: a prompt text under a key, per client and trigger point. */
export const inputPrompts = pgTable(
  "input_prompts",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    internalName: text("internal_name").notNull(),
    promptInputRaw: text("prompt_input_raw").notNull(),
    triggerPoint: text("trigger_point").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("input_prompts_app_trigger_key").on(t.appId, t.triggerPoint, t.internalName)],
);

/**
 * AI Finetuning rules. url_pattern, html_weightage and pdf_weightage lower retrieval scores at
 * query time (api/knowledge/index/search.ts); html_tags_to_remove cuts elements out of pages when they
 * are indexed (metadata.tags). See docs/decisions/010-quality-check-and-finetuning.md.
 */
export const finetunings = pgTable(
  "finetunings",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    triggerPoint: text("trigger_point").notNull().default(""),
    finetuningType: text("finetuning_type").notNull(),
    pattern: text("pattern").notNull().default(""),
    /** 0–1 for the weightage types, null for clean-up rules. */
    penalty: doublePrecision("penalty"),
    metadata: jsonb("metadata")
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("finetunings_app_idx").on(t.appId, t.finetuningType, t.triggerPoint),
    // One penalty per pattern, type and site: a second would contradict the first.
    uniqueIndex("finetunings_penalty_key")
      .on(t.appId, t.triggerPoint, t.finetuningType, t.pattern)
      .where(sql`${t.finetuningType} <> 'html_tags_to_remove'`),
    check("finetunings_penalty_range", sql`${t.penalty} is null or (${t.penalty} >= 0 and ${t.penalty} <= 1)`),
  ],
);

/**
 * The fields of a client's user-profile and program-profile data models (personalisation config
 * details): what the assistant captures about a person, and what it knows about each program.
 */
export const profileFields = pgTable(
  "profile_fields",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    modelType: text("model_type").notNull(),
    name: text("name").notNull(),
    definition: text("definition").notNull().default(""),
    fieldType: text("field_type").notNull(),
    group: text("group").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("profile_fields_app_model_name_key").on(t.appId, t.modelType, sql`lower(${t.name})`)],
);

/** Programs found by the last recommendation model build, with the program model's fields as their pages state them. */
export const programRecords = pgTable(
  "program_records",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    sourceUrl: text("source_url").notNull(),
    values: jsonb("values")
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** The sentence each value was read from. */
    evidence: jsonb("evidence")
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    builtAt: timestamp("built_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("program_records_app_idx").on(t.appId)],
);

/** One row per recommendation model build: its job, progress and outcome (the page's progress line). */
export const recommendationBuilds = pgTable(
  "recommendation_builds",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    jobId: text("job_id"),
    state: text("state").notNull().default("queued"),
    method: text("method"),
    pages: integer("pages").notNull().default(0),
    programs: integer("programs").notNull().default(0),
    error: text("error"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("recommendation_builds_app_idx").on(t.appId, t.id)],
);

/** A client's link to a CRM or LMS; secret settings are stored sealed (api/integrations/secrets.ts). */
export const integrations = pgTable(
  "integrations",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    name: text("name").notNull().default(""),
    externalSystem: text("external_system").notNull(),
    usecase: text("usecase").notNull(),
    environment: text("environment").notNull().default("staging"),
    settings: jsonb("settings")
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("integrations_app_system_key").on(t.appId, t.externalSystem, t.usecase, t.environment)],
);

/** Chat widget appearance per client, trigger point and environment (stage is edited, prod receives pushes). */
export const appearances = pgTable(
  "appearances",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    triggerPoint: text("trigger_point").notNull().default(""),
    environment: text("environment").notNull(),
    values: jsonb("values")
      .$type<Record<string, string | number | boolean>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // Production only: when someone last pushed these values (a save to production, or History's
    // restore of it). An import writes production's values without being a push, so it leaves this.
    pushedAt: timestamp("pushed_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("appearances_app_trigger_env_key").on(t.appId, t.triggerPoint, t.environment)],
);

/** The public key an embed script carries, one per client and environment (stage, prod). */
export const embedKeys = pgTable(
  "embed_keys",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    environment: text("environment").notNull(),
    key: text("key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("embed_keys_app_env_key").on(t.appId, t.environment), uniqueIndex("embed_keys_key").on(t.key)],
);

/** A visitor's conversation with a client's assistant. */
export const conversations = pgTable(
  "conversations",
  {
    id: uuid("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    environment: text("environment").notNull(),
    triggerPoint: text("trigger_point").notNull().default(""),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }).notNull().defaultNow(),
    /** The visitor's questions so far: the engagement part of a lead's score. */
    questionCount: integer("question_count").notNull().default(0),
    /*
     * What the Conversations list shows and filters on, kept current as messages, ratings and
     * reviews are stored, so a page of the list reads one row per conversation (docs/decisions/028).
     */
    lastQuestion: text("last_question").notNull().default(""),
    answered: integer("answered").notNull().default(0),
    fallback: integer("fallback").notNull().default(0),
    canned: integer("canned").notNull().default(0),
    disclaimed: integer("disclaimed").notNull().default(0),
    /** Replies to messages that asked nothing: a greeting, thanks, the visitor's name alone (not questions). */
    smallTalk: integer("small_talk").notNull().default(0),
    ratedUp: integer("rated_up").notNull().default(0),
    ratedDown: integer("rated_down").notNull().default(0),
    /** Answers rated down that no operator has marked reviewed yet. */
    downUnreviewed: integer("down_unreviewed").notNull().default(0),
    /** Answers an operator marked reviewed. */
    reviewedAnswers: integer("reviewed_answers").notNull().default(0),
  },
  (t) => [
    index("conversations_app_idx").on(t.appId, t.startedAt),
    // An agent's list, read in its own order.
    index("conversations_app_trigger_idx").on(t.appId, t.triggerPoint, t.startedAt),
    // The team's review queue (rated down, not reviewed) without reading every conversation: ratings
    // are few, and a question or an answer does not change these columns (updates stay HOT).
    index("conversations_app_rated_down_idx")
      .on(t.appId, t.startedAt)
      .where(sql`${t.ratedDown} > 0`),
    // "Most questions first" read in its order rather than sorted (docs/decisions/028).
    index("conversations_app_questions_idx").on(t.appId, t.questionCount, t.startedAt),
  ],
);

/** Each question and answer; the answer's outcome (answered, fallback, canned, disclaimed) and sources feed insights. */
export const messages = pgTable(
  "messages",
  {
    id: serial("id").primaryKey(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    text: text("text").notNull(),
    /**
     * A visitor's message without the name, email or phone number they gave with it and without a greeting
     * or thanks around the question (chat/small-talk.ts, askedPartOf): what is searched and what Insights
     * counts. Null when that is the whole message.
     */
    questionPart: text("question_part"),
    outcome: text("outcome"),
    /** What the visitor was shown; an uploaded file's with its `file_id` (its link expires, the transcript signs a new one). */
    sources: jsonb("sources")
      .$type<{ title: string; url: string; file_id?: number }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** For an unanswered question: the passages retrieval found closest, so an operator sees what is missing. */
    closest: jsonb("closest")
      .$type<{ title: string; url: string; score: number; text: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** For an answer: why it came out as it did, recorded when it was given (contract AnswerTrace; bounded). */
    trace: jsonb("trace").$type<AnswerTrace>(),
    /** The visitor's thumbs on an answer, and the comment left with a thumbs down. */
    rating: text("rating"),
    comment: text("comment"),
    ratedAt: timestamp("rated_at", { withTimezone: true }),
    /** An operator worked through this answer. */
    reviewed: boolean("reviewed").notNull().default(false),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    reviewedBy: text("reviewed_by"),
    createdAt: createdAt(),
  },
  (t) => [
    index("messages_conversation_idx").on(t.conversationId, t.id),
    index("messages_app_idx").on(t.appId, t.createdAt),
    // Business Insights' answers rated unhelpful, latest first, without reading every message.
    index("messages_rated_down_idx")
      .on(t.appId, t.ratedAt)
      .where(sql`${t.rating} = 'down'`),
    // The Conversations list's search, by words of any message: a scan of every message's text
    // took a second at a million messages (docs/decisions/028).
    index("messages_words_idx").using("gin", sql`to_tsvector('simple', ${t.text})`),
    // The Quality Check's evidence: an agent's latest rated answers, without reading the unrated ones (docs/decisions/029).
    index("messages_rated_idx")
      .on(t.appId, t.id)
      .where(sql`${t.rating} is not null`),
  ],
);

/** What a visitor said about themselves, by field of the client's user profile model, with the message it came from. */
export const visitorProfiles = pgTable(
  "visitor_profiles",
  {
    conversationId: uuid("conversation_id")
      .primaryKey()
      .references(() => conversations.id, { onDelete: "cascade" }),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    values: jsonb("values")
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** Field name ⇒ the id of the message the value was taken from. */
    sourceMessages: jsonb("source_messages")
      .$type<Record<string, number>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** The fields part of the lead score (api/insights/lead-score.ts); engagement is added from the conversation. */
    fieldScore: integer("field_score").notNull().default(0),
    /** An email or phone was captured: the profile is a lead. */
    isLead: boolean("is_lead").notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [index("visitor_profiles_app_idx").on(t.appId)],
);

/*
 * Rollups the Business Insights dashboard reads instead of raw messages, per client, trigger
 * point, environment and UTC day. Kept current as each message is stored, and rebuilt from the
 * messages for given days (after a person's data is deleted, or to backfill).
 */
const rollupKey = {
  appId: integer("app_id")
    .notNull()
    .references(() => clientApps.id, { onDelete: "cascade" }),
  triggerPoint: text("trigger_point").notNull(),
  environment: text("environment").notNull(),
  day: date("day", { mode: "string" }).notNull(),
};

export const insightDays = pgTable(
  "insight_days",
  {
    ...rollupKey,
    conversations: integer("conversations").notNull().default(0),
    questions: integer("questions").notNull().default(0),
    answered: integer("answered").notNull().default(0),
    fallback: integer("fallback").notNull().default(0),
    canned: integer("canned").notNull().default(0),
    disclaimed: integer("disclaimed").notNull().default(0),
    /** Small-talk messages and their replies: counted apart from `questions`, which they are not. */
    smallTalk: integer("small_talk").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.appId, t.day, t.triggerPoint, t.environment] })],
);

export const insightQuestions = pgTable(
  "insight_questions",
  {
    ...rollupKey,
    /** The question lower-cased, spaces collapsed, end punctuation dropped: how repeats are counted. */
    questionKey: text("question_key").notNull(),
    asked: integer("asked").notNull().default(0),
    unanswered: integer("unanswered").notNull().default(0),
    closest: jsonb("closest")
      .$type<{ title: string; url: string; score: number; text: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Why the latest unanswered ask of the day got the fallback (its trace's reason); null for answers traced before reasons were. */
    fallbackReason: text("fallback_reason"),
    /** Whether AI Finetuning left out pages holding the question's key words in that ask (its trace's `left_out`). */
    leftOut: boolean("left_out").notNull().default(false),
    /**
     * The uploaded files that ask's search left out as not tagged for its environment (its trace's
     * `files_not_tagged`, names): the ones to tag when they are why. Empty before traces kept them.
     */
    filesNotTagged: jsonb("files_not_tagged")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** How the visitor worded that ask (the key is lower-cased, its end punctuation dropped); null before wordings were kept. */
    wording: text("wording"),
    /**
     * That ask's own key words no passage of the store held, weightiest first (its trace's
     * `key_words` with no passage): often what the missing page is about. Empty before traces kept them.
     */
    lacked: jsonb("lacked")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** How the visitor worded the day's latest ask, answered or not: what Top questions shows; null before it was kept. */
    askedAs: text("asked_as"),
    /** The id of the answer to that ask: which of one day's rows (trigger points, environments) was asked last. */
    askedAsAnswer: integer("asked_as_answer"),
    /**
     * The id of the answer to the day's latest unanswered ask: when it is below asked_as_answer, the
     * question was asked again after it and answered. Null when none went unanswered, and on rows
     * written before it was kept (Insights then says nothing of a later answer).
     */
    lastFallbackAnswer: integer("last_fallback_answer"),
  },
  (t) => [
    primaryKey({ columns: [t.appId, t.day, t.triggerPoint, t.environment, t.questionKey] }),
    // The latest row of each unanswered question listed, answered or not: whether it was answered since.
    index("insight_questions_latest_idx").on(t.appId, t.questionKey, t.day),
    // The closest passages of the few unanswered questions listed, latest day first, without reading the range.
    index("insight_questions_unanswered_idx")
      .on(t.appId, t.questionKey, t.day)
      .where(sql`${t.unanswered} > 0`),
  ],
);

/** The same question counts per calendar month (first day of the month): long ranges read whole months here. */
export const insightQuestionMonths = pgTable(
  "insight_question_months",
  {
    appId: rollupKey.appId,
    triggerPoint: text("trigger_point").notNull(),
    environment: text("environment").notNull(),
    month: date("month", { mode: "string" }).notNull(),
    questionKey: text("question_key").notNull(),
    asked: integer("asked").notNull().default(0),
    unanswered: integer("unanswered").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.appId, t.month, t.triggerPoint, t.environment, t.questionKey] })],
);

export const insightSources = pgTable(
  "insight_sources",
  {
    ...rollupKey,
    url: text("url").notNull(),
    title: text("title").notNull(),
    cited: integer("cited").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.appId, t.day, t.triggerPoint, t.environment, t.url] })],
);

/** A question an agent is tested with, and what its answer must do (any of the three expectations). */
export const testQuestions = pgTable(
  "test_questions",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    triggerPoint: text("trigger_point").notNull().default(""),
    question: text("question").notNull(),
    expectSource: text("expect_source"),
    expectText: text("expect_text"),
    expectOutcome: text("expect_outcome"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("test_questions_app_idx").on(t.appId, t.triggerPoint, t.id)],
);

/**
 * One run of an agent's test questions in one environment, and its tally. An agent has at most one
 * run waiting per environment (`test_runs_one_waiting`): whoever asks while one waits gets that run.
 */
export const testRuns = pgTable(
  "test_runs",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    triggerPoint: text("trigger_point").notNull().default(""),
    environment: text("environment").notNull(),
    status: text("status").notNull().default("queued"),
    trigger: text("trigger").notNull(),
    passed: integer("passed").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    /** The questions it asks, counted when it starts (null while it waits: it will ask those of its agent then). */
    questions: integer("questions"),
    error: text("error"),
    createdAt: createdAt(),
    /** When its job may start: later than its creation for a run held back by the one-run-a-minute rule. */
    startAfter: timestamp("start_after", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("test_runs_app_idx").on(t.appId, t.triggerPoint, t.environment, t.id),
    uniqueIndex("test_runs_one_waiting")
      .on(t.appId, t.triggerPoint, t.environment)
      .where(sql`${t.status} = 'queued'`),
  ],
);

/** Each question's result in a run, kept as asked (the question may change or go later). */
export const testResults = pgTable(
  "test_results",
  {
    id: serial("id").primaryKey(),
    runId: integer("run_id")
      .notNull()
      .references(() => testRuns.id, { onDelete: "cascade" }),
    questionId: integer("question_id").references(() => testQuestions.id, { onDelete: "set null" }),
    question: text("question").notNull(),
    passed: boolean("passed").notNull(),
    reason: text("reason"),
    outcome: text("outcome").notNull(),
    answer: text("answer").notNull(),
    /** What the answer cited; an uploaded file's with its `file_id` (its link expires, the run signs a new one when read). */
    sources: jsonb("sources")
      .$type<{ title: string; url: string; file_id?: number }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The best passage's score when it was asked. */
    topScore: real("top_score"),
    /**
     * The chance that its answer was right, as the quality check estimated it when it was asked: the
     * Quality Check's evidence replays thresholds on it. Null for results recorded before it was.
     */
    confidence: real("confidence"),
    /**
     * The question's key words no passage of the store held when it was asked, weightiest first
     * (its answer's trace): often why an answer failed. Empty for results recorded before.
     */
    lacked: jsonb("lacked")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
  },
  (t) => [index("test_results_run_idx").on(t.runId, t.id)],
);

/**
 * Every configuration change of a client (docs/decisions/024): who made it, when, and the thing
 * before and after as the API shows it. `target` says which thing of its kind (a trigger point, a
 * model type, an agent id) so a restore knows what to write back. The author's email is kept
 * beside the id: the history outlives the account.
 */
export const configChanges = pgTable(
  "config_changes",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => clientApps.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    userEmail: text("user_email").notNull(),
    kind: text("kind").notNull(),
    target: text("target").notNull().default(""),
    summary: text("summary").notNull(),
    before: jsonb("before").$type<unknown>(),
    after: jsonb("after").$type<unknown>(),
    /**
     * The parts of the thing the change wrote, where a revert writes back only those (controls: the
     * types whose part differs, `writtenBy` in api/history/written.ts); null where a revert writes the
     * whole thing back. History counts a revert's later changes by it.
     */
    written: text("written").array(),
  },
  (t) => [
    // Read backwards for the list's `at desc, id desc`: an index declared DESC NULLS LAST cannot give
    // that order (DESC means NULLS FIRST), and the planner sorted every row of the client instead.
    index("config_changes_app_at_idx").on(t.appId, t.at, t.id),
    // The History screen's two filters, each read in the list's own order.
    index("config_changes_app_kind_at_idx").on(t.appId, t.kind, t.at, t.id),
    index("config_changes_app_user_at_idx").on(t.appId, t.userEmail, t.at, t.id),
    // The changes made to one thing after another (History's `later_changes`): a short range each.
    index("config_changes_app_kind_target_idx").on(t.appId, t.kind, t.target, t.id),
  ],
);
