import type { AppLoadContext } from "@remix-run/node";
import { performance } from "node:perf_hooks";
import type { Resend } from "~/lib/messages";

export interface GoogleSignInConfig {
  clientId: string;
  clientSecret: string;
  /** Google's by default; tests point it at a local OpenID provider. */
  authorizationUrl: string;
}

/** Where the redirect items of the navigation open (Business Insights, the user profile store). */
export interface BackofficeConfig {
  mode: "production" | "staging" | "dev";
  /** URL templates with {url_code}, {country} and {market}; unset ones default to this server. */
  templates: Partial<Record<"production" | "staging" | "dev", string>>;
}

export interface ConsoleConfig {
  /** First signs, all verify: rotate by prepending a new secret. */
  sessionSecrets: string[];
  google: GoogleSignInConfig | null;
  devLogin: boolean;
  backoffice: BackofficeConfig;
}

/**
 * What the loaders of one browser request share. Remix hands each loader its own copy of the
 * Request but the same load context, so server.ts makes one of these per request.
 */
export interface RequestScope {
  /** GET answers of the API already asked for during this request, by token and URL. */
  apiReads: Map<string, Promise<unknown>>;
  /** Where this request's time went: its page's Server-Timing header (server-timing.server.ts). */
  timing: PageTiming;
  /**
   * This request's post when the API could not take it (a 503 or 429; null when its fields could not be
   * read): a page that cannot be drawn after it offers it again (resend-page.server.ts).
   */
  interruptedPost?: Resend | null;
  /** The API's Retry-After with that 503 (or 429), for the answer to the post to pass on. */
  interruptedRetryAfter?: string | null;
  /** How that post was answered: 503 and "not saved just now", or 429 when a limit refused to renew the sign-in. */
  interruptedAs?: { status: 429 | 503; message: string };
}

export interface PageTiming {
  startedAt: number;
  /** When the loaders (or the action and loaders) were done and the page's render began. */
  loadedAt: number | null;
  apiMs: number;
  apiCalls: number;
  /** The database time the API reported for those calls. */
  databaseMs: number;
  statements: number;
}

export const newRequestScope = (): RequestScope => ({
  apiReads: new Map(),
  timing: { startedAt: performance.now(), loadedAt: null, apiMs: 0, apiCalls: 0, databaseMs: 0, statements: 0 },
});

/**
 * What the composition root (server.ts) hands every loader and action. The console reaches the
 * API only through `apiFetch`: the in-process API by default, or HTTP to API_URL.
 */
// A type alias rather than an interface: Remix's AppLoadContext has an index signature, which
// object types satisfy implicitly and interfaces do not.
export type ConsoleContext = {
  apiFetch: (request: Request) => Promise<Response>;
  config: ConsoleConfig;
  /** Whether the browser reached us over HTTPS (directly or through a trusted proxy). */
  secure: boolean;
  /** Adds a Set-Cookie to the response whatever the route returns (used when tokens refresh). */
  appendSetCookie: (cookie: string) => void;
  /** The browser's address as Express established it (forwarded only behind TRUST_PROXY). */
  clientAddress: string | null;
  /** Counts sign-in attempts per address and account; answers the seconds to wait when over. */
  signInThrottle: SignInThrottle;
  /** This response's Content-Security-Policy nonce, for inline scripts. */
  cspNonce?: string;
  /** Present when the context lives for one browser request only (server.ts); absent in tests that reuse one. */
  requestScope?: RequestScope;
};

export interface SignInThrottle {
  consume(address: string | null, account: string | null): Promise<number | null>;
  failed(account: string): Promise<void>;
}

declare module "@remix-run/server-runtime" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends ConsoleContext {}
}

export const consoleContext = (context: AppLoadContext): ConsoleContext => context;
