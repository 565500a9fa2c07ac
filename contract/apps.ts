import { z } from "zod";

export const CLIENT_TYPES = ["higher_ed", "ecommerce"] as const;
export const MODE_ENVS = ["staging", "production"] as const;
export const AGENT_TYPES = ["enrollment", "engagement", "ecommerce"] as const;

export const AgentSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  site_code: z.string(),
  agent_type: z.enum(AGENT_TYPES),
  logo: z.string().nullable(),
  status: z.string(),
});
export type AgentSummary = z.infer<typeof AgentSummary>;

/** A client app with every field of the spec's section 3. */
export const ClientApp = z.object({
  id: z.number().int(),
  client_name: z.string(),
  primary_website: z.string(),
  logo_url: z.string().nullable(),
  country: z.string(),
  market: z.string(),
  project_url: z.string(),
  notes: z.string(),
  url_code: z.string(),
  copy_market: z.string(),
  client_type: z.string(),
  onboard_existing_client: z.boolean(),
  trigger_points: z.array(z.string()),
  mode_env: z.string(),
  insync_prod_app_id: z.string().nullable(),
  status: z.string(),
  agents: z.array(AgentSummary),
});
export type ClientApp = z.infer<typeof ClientApp>;

export const AppsQuery = z.object({
  status: z.enum(["active", "inactive"]).optional(),
});
export type AppsQuery = z.infer<typeof AppsQuery>;

export const AppsList = z.object({ apps: z.array(ClientApp) });
export type AppsList = z.infer<typeof AppsList>;

/**
 * First path segments the console and the API host use themselves. A client's url_code becomes
 * the first segment of its pages, so it may not be one of these.
 */
export const RESERVED_URL_CODES = [
  "clients", "users", "agent", "auth", "v1", "build", "fonts", "jobs", "login", "logout", "admin",
  "backoffice", "storage", "sitemap_refresh", "widget.js", "demo-site", "dashboard", "user_profiles",
  "favicon.ico", "robots.txt", "healthz",
] as const;
