// On its own: the console's shell reads it on every page, and the rest of apps.ts it need not carry.

/**
 * First path segments the console and the API host use themselves. A client's url_code becomes
 * the first segment of its pages, so it may not be one of these.
 */
export const RESERVED_URL_CODES = [
  "clients",
  "users",
  "agent",
  "auth",
  "v1",
  "build",
  "fonts",
  "jobs",
  "login",
  "logout",
  "admin",
  "backoffice",
  "storage",
  "sitemap_refresh",
  "widget.js",
  "demo-site",
  "dashboard",
  "user_profiles",
  "favicon.ico",
  "robots.txt",
  "healthz",
  "generate_jwt_token",
] as const;
