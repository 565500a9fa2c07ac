import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ThrottleLimits } from "./http/throttle";

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  /** Google's endpoints by default; tests point them at a local OpenID provider. */
  tokenUrl: string;
  jwksUrl: string;
  issuers: string[];
}

export interface ApiConfig {
  production: boolean;
  /** Signs user tokens (HS256). */
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  /** Always allowed to sign in; created as super_admin by the seed. */
  adminEmail: string;
  devLoginAllowed: boolean;
  google: GoogleConfig | null;
  /** Tests and local demos only: let the crawler reach loopback and private addresses. */
  crawlAllowPrivate: boolean;
  /** Address prefixes the crawler may reach although they are local: the app's own demo site. */
  crawlLocalExceptions: string[];
  /** Where the bundled demo site is, for the seed. */
  demoSiteUrl: string | null;
  crawlConcurrencyPerHost: number;
  crawlTimeoutMs: number;
  /**
   * Websites waiting for sitemap generation and files waiting for indexing longer than this, with
   * no worker on them, had their job lost: it is sent again.
   */
  stuckAfterSeconds: number;
  /** A worker's lease: work held by a process that stopped renewing it this long is taken back. */
  workerLeaseSeconds: number;
  /** Uploaded PDFs: the largest accepted, in bytes, and the most pages indexed. */
  fileMaxBytes: number;
  fileMaxPages: number;
  /** Where browsers reach this server (embed scripts, links in chat answers): PUBLIC_URL, else http://HOST:PORT. */
  publicUrl: string;
  /** Chat requests allowed per visitor address and embed key per minute. */
  chatRateLimitPerMinute: number;
  /** Sign-ins and token refreshes allowed per minute, per client address and per account. */
  signInLimits: ThrottleLimits;
  /** Objects (logos, images, PDFs registered for upload, exports) one person may put in storage per minute. */
  storageWritesPerMinute: number;
  /** An OpenAI-compatible model (LLM_BASE_URL); null keeps everything rule-based and offline. */
  llm: LlmConfig | null;
}

/** Shared by the API's sign-in routes and the console's sign-in form. */
export function signInLimitsFromEnv(env: Env): ThrottleLimits {
  return {
    perAddressPerMinute: Number(env.SIGN_IN_RATE_LIMIT_PER_MINUTE ?? 20),
    perAccountPerMinute: Number(env.SIGN_IN_ACCOUNT_RATE_LIMIT_PER_MINUTE ?? 10),
  };
}

export interface LlmConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

export function llmConfigFromEnv(env: Env): LlmConfig | null {
  if (!env.LLM_BASE_URL) return null;
  return {
    baseUrl: env.LLM_BASE_URL.replace(/\/$/, ""),
    apiKey: env.LLM_API_KEY ?? "",
    model: env.LLM_MODEL ?? "gpt-4o-mini",
    timeoutMs: Number(env.LLM_TIMEOUT_MS ?? 30_000),
  };
}

type Env = Record<string, string | undefined>;

export const GOOGLE_DEFAULTS = {
  authorizationUrl: "https://accounts.google.com/o/oauth2/v2/auth",
  tokenUrl: "https://oauth2.googleapis.com/token",
  jwksUrl: "https://www.googleapis.com/oauth2/v3/certs",
  issuers: ["https://accounts.google.com", "accounts.google.com"],
};

/** One Tap is Google's own widget: offered only against the real Google, never a stand-in provider. */
export const isGoogleItself = (authorizationUrl: string) => authorizationUrl.startsWith("https://accounts.google.com/");

export function googleConfigFromEnv(env: Env): GoogleConfig | null {
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return null;
  return {
    clientId: env.GOOGLE_CLIENT_ID,
    clientSecret: env.GOOGLE_CLIENT_SECRET,
    tokenUrl: env.GOOGLE_TOKEN_URL ?? GOOGLE_DEFAULTS.tokenUrl,
    jwksUrl: env.GOOGLE_JWKS_URL ?? GOOGLE_DEFAULTS.jwksUrl,
    issuers: env.GOOGLE_ISSUER ? [env.GOOGLE_ISSUER] : GOOGLE_DEFAULTS.issuers,
  };
}

export function isProduction(env: Env) {
  return env.NODE_ENV === "production";
}

/** The embedded demo: PGlite and the in-process API, as `npm start` runs with no settings. */
export function isEmbeddedDemo(env: Env) {
  return !env.DATABASE_URL && !env.API_URL;
}

/**
 * Whether development sign-in (by email, no password) is offered. The API (`POST /auth/dev`) and
 * the console's login screen both ask this one function, so the form is never hidden while the
 * endpoint still answers. `AUTH_DEV_LOGIN=true|false` decides outright; otherwise it is on only
 * without Google, and in production only for the embedded demo.
 */
export function devSignInEnabled(env: Env) {
  if (env.AUTH_DEV_LOGIN === "false") return false;
  if (env.AUTH_DEV_LOGIN === "true") return true;
  if (env.GOOGLE_CLIENT_ID) return false;
  return !isProduction(env) || isEmbeddedDemo(env);
}

export interface RuntimeSecrets {
  /** First one signs; all of them verify (rotation). */
  sessionSecrets: string[];
  jwtSecret: string;
}

/**
 * Secrets come from the environment; when unset (the embedded default) they are generated once
 * and kept in DATA_DIR/secrets.json so sessions survive restarts without living in the repo.
 */
export function loadRuntimeSecrets(dataDir: string, env: Env): RuntimeSecrets {
  const file = path.join(dataDir, "secrets.json");
  let stored: Partial<{ session: string; jwt: string }> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, "utf8"));
  const needsWrite = (!env.SESSION_SECRET && !stored.session) || (!env.API_JWT_SECRET && !stored.jwt);
  if (needsWrite) {
    stored = {
      session: stored.session ?? randomBytes(32).toString("hex"),
      jwt: stored.jwt ?? randomBytes(32).toString("hex"),
    };
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  const sessionSecrets = (env.SESSION_SECRET ?? stored.session ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return { sessionSecrets, jwtSecret: env.API_JWT_SECRET ?? stored.jwt ?? "" };
}

/** This server's own demo site, as the crawler reaches it (PORT and HOST of this process). */
function demoSiteUrl(env: Env) {
  if (env.API_URL) return null;
  const host = !env.HOST || env.HOST === "0.0.0.0" || env.HOST === "::" ? "127.0.0.1" : env.HOST;
  return `http://${host}:${env.PORT ?? 3000}/demo-site/`;
}

export function publicUrlOf(env: Env) {
  if (env.PUBLIC_URL) return env.PUBLIC_URL.replace(/\/$/, "");
  if (env.API_URL) return env.API_URL.replace(/\/$/, "");
  const host = !env.HOST || env.HOST === "0.0.0.0" || env.HOST === "::" ? "127.0.0.1" : env.HOST;
  return `http://${host}:${env.PORT ?? 3000}`;
}

export function apiConfigFromEnv(env: Env, secrets: RuntimeSecrets): ApiConfig {
  return {
    production: isProduction(env),
    jwtSecret: secrets.jwtSecret,
    accessTokenTtlSeconds: Number(env.ACCESS_TOKEN_TTL_SECONDS ?? 15 * 60),
    refreshTokenTtlDays: Number(env.REFRESH_TOKEN_TTL_DAYS ?? 30),
    adminEmail: (env.ADMIN_EMAIL ?? "admin@example.com").toLowerCase(),
    devLoginAllowed: devSignInEnabled(env),
    google: googleConfigFromEnv(env),
    crawlAllowPrivate: env.CRAWL_ALLOW_PRIVATE === "true",
    crawlLocalExceptions: demoSiteUrl(env)
      ? [demoSiteUrl(env)!, demoSiteUrl(env)!.replace("127.0.0.1", "localhost")]
      : [],
    demoSiteUrl: demoSiteUrl(env),
    crawlConcurrencyPerHost: Number(env.CRAWL_CONCURRENCY_PER_HOST ?? 4),
    crawlTimeoutMs: Number(env.CRAWL_TIMEOUT_MS ?? 15_000),
    stuckAfterSeconds: Number(env.CRAWL_STUCK_AFTER_SECONDS ?? 300),
    workerLeaseSeconds: Math.max(3, Number(env.WORKER_LEASE_SECONDS ?? 30) || 30),
    fileMaxBytes: Number(env.FILE_MAX_MB ?? 50) * 1024 * 1024,
    fileMaxPages: Number(env.FILE_MAX_PAGES ?? 2000),
    llm: llmConfigFromEnv(env),
    publicUrl: publicUrlOf(env),
    chatRateLimitPerMinute: Number(env.CHAT_RATE_LIMIT_PER_MINUTE ?? 30),
    signInLimits: signInLimitsFromEnv(env),
    storageWritesPerMinute: Math.max(1, Number(env.STORAGE_WRITES_PER_MINUTE ?? 60) || 60),
  };
}
