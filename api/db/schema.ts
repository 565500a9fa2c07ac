import { sql } from "drizzle-orm";
import {
  boolean, customType, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const users = pgTable("users", {
  id: serial("id").primaryKey(),
  /** Stored lower-cased: sign-in compares addresses case-insensitively. */
  email: text("email").notNull(),
  name: text("name").notNull().default(""),
  userType: text("user_type").notNull().default("user"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [uniqueIndex("users_email_key").on(t.email)]);

/**
 * Opaque refresh tokens, stored only as a SHA-256 hash. Each sign-in starts a family; every
 * refresh marks the presented token used and issues the next one in the same family, so
 * presenting a used token again reveals theft and revokes the whole family.
 */
export const refreshTokens = pgTable("refresh_tokens", {
  id: serial("id").primaryKey(),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull(),
  familyId: uuid("family_id").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex("refresh_tokens_hash_key").on(t.tokenHash),
  index("refresh_tokens_family_idx").on(t.familyId),
]);

export const clientApps = pgTable("client_apps", {
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
  triggerPoints: jsonb("trigger_points").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  modeEnv: text("mode_env").notNull().default("staging"),
  insyncProdAppId: text("insync_prod_app_id"),
  status: text("status").notNull().default("active"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [uniqueIndex("client_apps_url_code_key").on(t.urlCode)]);

/** A user's role inside one client app (client_user, client_admin, admin, super_admin). */
export const appUsers = pgTable("app_users", {
  appId: integer("app_id").notNull().references(() => clientApps.id, { onDelete: "cascade" }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  role: text("role").notNull().default("client_user"),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.appId, t.userId] }), index("app_users_user_idx").on(t.userId)]);

export const agents = pgTable("agents", {
  id: serial("id").primaryKey(),
  appId: integer("app_id").notNull().references(() => clientApps.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  agentType: text("agent_type").notNull().default("enrollment"),
  siteCode: text("site_code").notNull().default(""),
  logo: text("logo"),
  url: text("url").notNull().default(""),
  status: text("status").notNull().default("active"),
  modeEnv: text("mode_env").notNull().default("staging"),
  metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index("agents_app_idx").on(t.appId), uniqueIndex("agents_app_site_code_key").on(t.appId, t.siteCode)]);

/**
 * Personality and guardrail texts per client and trigger point (agent site code): the AI
 * personality guidelines, sensitive and no-go topics. One row per (app, trigger point, name).
 */
export const controls = pgTable("controls", {
  id: serial("id").primaryKey(),
  appId: integer("app_id").notNull().references(() => clientApps.id, { onDelete: "cascade" }),
  internalName: text("internal_name").notNull(),
  displayName: text("display_name").notNull().default(""),
  promptInputRaw: text("prompt_input_raw").notNull().default(""),
  /** '' is the client-wide default. */
  triggerPoint: text("trigger_point").notNull().default(""),
  metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [uniqueIndex("controls_app_trigger_name_key").on(t.appId, t.triggerPoint, t.internalName)]);

/** Files the system wrote for a client (exports, later reports), listed in Admin Downloads. */
export const storedFiles = pgTable("stored_files", {
  id: serial("id").primaryKey(),
  appId: integer("app_id").references(() => clientApps.id, { onDelete: "set null" }),
  fileType: text("file_type").notNull(),
  fileName: text("file_name").notNull(),
  storageKey: text("storage_key").notNull(),
  size: integer("size").notNull(),
  createdAt: createdAt(),
}, (t) => [index("stored_files_app_type_idx").on(t.appId, t.fileType, t.createdAt), uniqueIndex("stored_files_key").on(t.storageKey)]);

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** A website of a client's knowledge store: crawled through its sitemaps, or a few given URLs. */
export const websites = pgTable("websites", {
  id: serial("id").primaryKey(),
  appId: integer("app_id").notNull().references(() => clientApps.id, { onDelete: "cascade" }),
  url: text("url").notNull(),
  siteMap: text("site_map").notNull().default("full_website"),
  status: text("status").notNull().default("pending_sitemap_generation"),
  enabled: boolean("enabled").notNull().default(true),
  tags: jsonb("tags").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  skipPatterns: jsonb("skip_patterns").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  allowedPatterns: jsonb("allowed_patterns").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  /** The URLs given for a few_urls website. */
  seedUrls: jsonb("seed_urls").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  /** Sitemaps found at the last discovery. */
  sitemaps: jsonb("sitemaps").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  addedBy: integer("added_by").references(() => users.id, { onDelete: "set null" }),
  urlsCount: integer("urls_count").notNull().default(0),
  sitemapDiff: boolean("sitemap_diff").notNull().default(false),
  lastError: text("last_error"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index("websites_app_idx").on(t.appId, t.id)]);

/** One page of a website and where it is in the index pipeline. */
export const urls = pgTable("urls", {
  id: serial("id").primaryKey(),
  appId: integer("app_id").notNull().references(() => clientApps.id, { onDelete: "cascade" }),
  websiteId: integer("website_id").notNull().references(() => websites.id, { onDelete: "cascade" }),
  url: text("url").notNull(),
  title: text("title").notNull().default(""),
  status: text("status").notNull().default("pending_review"),
  sitemapRefreshReviewStatus: text("sitemap_refresh_review_status"),
  /** Null means the default (30 days). */
  refreshDays: integer("refresh_days"),
  metadata: jsonb("metadata").$type<{ internal_url?: string; error_message?: string; [key: string]: unknown }>().notNull().default(sql`'{}'::jsonb`),
  contentHash: text("content_hash"),
  /** The sitemap's lastmod, to tell changed pages at a sitemap refresh. */
  lastmod: text("lastmod"),
  indexedAt: timestamp("indexed_at", { withTimezone: true }),
  sourceId: text("source_id"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [
  uniqueIndex("urls_website_url_key").on(t.websiteId, t.url),
  index("urls_filter_idx").on(t.appId, t.websiteId, t.status, t.sitemapRefreshReviewStatus, t.url),
  index("urls_app_status_idx").on(t.appId, t.status, t.url),
  index("urls_app_url_idx").on(t.appId, t.url),
  index("urls_website_url_idx").on(t.websiteId, t.url),
  // Only URLs awaiting or after a sitemap review: small, and what the review filter counts.
  index("urls_review_idx").on(t.websiteId, t.sitemapRefreshReviewStatus, t.status).where(sql`${t.sitemapRefreshReviewStatus} is not null`),
  index("urls_url_trgm_idx").using("gin", sql`${t.url} gin_trgm_ops`),
]);

/** Retrieval passages of an indexed page, searchable by Postgres full-text search. */
export const chunks = pgTable("chunks", {
  id: serial("id").primaryKey(),
  appId: integer("app_id").notNull().references(() => clientApps.id, { onDelete: "cascade" }),
  urlId: integer("url_id").notNull().references(() => urls.id, { onDelete: "cascade" }),
  position: integer("position").notNull(),
  headingPath: jsonb("heading_path").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  text: text("text").notNull(),
  tsv: tsvector("tsv").generatedAlwaysAs(sql`to_tsvector('english', coalesce(text, ''))`),
  createdAt: createdAt(),
}, (t) => [
  index("chunks_url_idx").on(t.urlId, t.position),
  index("chunks_app_idx").on(t.appId),
  index("chunks_tsv_idx").using("gin", t.tsv),
]);

/**
 * How many URLs of each website are in each status, kept by statement-level triggers on urls
 * (migration 0003): the status filter's counts and unfiltered totals without counting a million rows.
 */
export const urlStatusCounts = pgTable("url_status_counts", {
  websiteId: integer("website_id").notNull(),
  status: text("status").notNull(),
  n: integer("n").notNull().default(0),
}, (t) => [primaryKey({ columns: [t.websiteId, t.status] })]);
