import { createHash, createHmac } from "node:crypto";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { GoogleStrategy } from "remix-auth-google";
import { LogoutResult, TokenPair, UserInfo } from "@contract";
import { DevLoginForm } from "~/lib/forms.schema";
import { ApiError, loginRedirectUrl, publicCall } from "./api/client.server";
import type { ConsoleContext } from "./context.server";
import { commitSession, getSession, sessionStorageFor } from "./session.server";

const THIS_SITE = "http://console.invalid";

/**
 * Where to go after sign-in: only a path of this site. Browsers drop tabs and newlines inside
 * URLs and read `\\` as `/`, so `/\t/evil.example` would leave the site and `/\n/x` cannot
 * even be sent as a header: anything with a control character or a backslash is refused, and
 * what remains must still resolve to this site once parsed the way a browser parses it, and so
 * must the normalised path we answer with.
 */
export function safeRedirectTo(value: FormDataEntryValue | string | null | undefined, fallback = "/") {
  if (typeof value !== "string" || !value.startsWith("/") || value.length > 2048) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  let target: URL;
  try {
    target = new URL(value, THIS_SITE);
  } catch {
    return fallback;
  }
  if (target.origin !== THIS_SITE) return fallback;
  // What we answer is itself resolved by the browser: `/.//evil.example` normalises to
  // `//evil.example`, which a browser reads as another host. Keep it only if it stays here too.
  const resolved = `${target.pathname}${target.search}${target.hash}`;
  if (resolved.startsWith("//") || new URL(resolved, THIS_SITE).origin !== THIS_SITE) return fallback;
  return resolved;
}

/**
 * PKCE's verifier (RFC 7636) and OpenID's nonce for one Google authorization request, derived from
 * its state with the session secret. The state lives in the browser's session and remix-auth checks
 * it on the way back, so both are bound to that request and that browser, unknown to anyone without
 * the secret, and nothing more needs storing: a code issued to another request (injected into this
 * browser's callback) fails Google's PKCE check, and an ID token minted for another sign-in fails
 * the nonce's.
 */
export function googleFlowBinding(state: string, context: Pick<ConsoleContext, "config">) {
  const [secret] = context.config.sessionSecrets;
  const derive = (purpose: string) => createHmac("sha256", secret).update(`${purpose}:${state}`).digest("base64url");
  const codeVerifier = derive("pkce");
  return {
    codeVerifier,
    codeChallenge: createHash("sha256").update(codeVerifier).digest("base64url"),
    nonce: derive("nonce"),
  };
}

/**
 * Stores freshly issued tokens and the user they belong to, then redirects into the console. The
 * session starts afresh: nothing of the one before (a Google flow's state, above all, which would
 * let its callback be replayed) carries into the signed-in one.
 */
export async function startSession(request: Request, context: ConsoleContext, tokens: TokenPair, redirectTo: string) {
  const response = await context.apiFetch(
    new Request("http://api.internal/v1/users/get_info", { headers: { authorization: `Bearer ${tokens.user_token}` } }),
  );
  if (!response.ok) throw new ApiError(response.status, { message: "Could not read the signed-in user" });
  const { id, email, name, user_type } = UserInfo.parse(await response.json());
  const session = await sessionStorageFor(context).getSession();
  session.set("user_token", tokens.user_token);
  session.set("refresh_token", tokens.refresh_token);
  session.set("user", { id, email, name, user_type });
  return redirect(safeRedirectTo(redirectTo), { headers: { "Set-Cookie": await commitSession(session, context) } });
}

/** Revokes the session's refresh tokens at the API; signing out locally must not depend on it. */
export async function revokeSessionTokens(context: ConsoleContext, refreshToken: string | undefined) {
  if (!refreshToken) return;
  try {
    await publicCall(context, LogoutResult, "POST", "/v1/users/logout", { body: { refresh_token: refreshToken } });
  } catch (error) {
    console.warn(`[console] could not revoke tokens at sign-out: ${(error as Error).message}`);
  }
}

/** The development sign-in form as posted, checked with its schema (here, so the page's own module does not ship zod). */
export const readDevLoginForm = (formData: FormData) => parseWithZod(formData, { schema: DevLoginForm });

/** Development sign-in: the API checks the account exists (and that dev sign-in is allowed). */
export function devSignIn(context: ConsoleContext, email: string) {
  return publicCall(context, TokenPair, "POST", "/auth/dev", { body: { email } });
}

/**
 * Google's authorization-code flow through remix-auth. Instead of exchanging the code itself, the
 * strategy hands it to the API (POST /auth/google), which exchanges and verifies it and issues our
 * own tokens; Google's URLs come from configuration so tests can use a local OpenID provider.
 */
class ConsoleGoogleStrategy extends GoogleStrategy<TokenPair> {
  constructor(
    private readonly context: ConsoleContext,
    callbackURL: string,
    /** On the way back from Google: the state its redirect carries, which remix-auth checks. */
    private readonly returnedState: string | null,
  ) {
    const google = context.config.google!;
    super(
      { clientID: google.clientId, clientSecret: google.clientSecret, callbackURL, prompt: "select_account" },
      async ({ extraParams }) => TokenPair.parse(extraParams),
    );
    this.authorizationURL = google.authorizationUrl;
  }

  protected async fetchAccessToken(code: string, params: URLSearchParams) {
    const binding = this.returnedState ? googleFlowBinding(this.returnedState, this.context) : null;
    const tokens = await publicCall(this.context, TokenPair, "POST", "/auth/google", {
      body: {
        code,
        redirect_uri: params.get("redirect_uri") ?? undefined,
        code_verifier: binding?.codeVerifier,
        nonce: binding?.nonce,
      },
    });
    return { accessToken: tokens.user_token, refreshToken: tokens.refresh_token, extraParams: tokens as never };
  }

  protected async userProfile() {
    // The API already verified who this is; the profile is read from get_info in startSession.
    return { provider: "google" } as never;
  }
}

export const GOOGLE_CALLBACK_PATH = "/login/google/callback";

export function googleAuthenticator(request: Request, context: ConsoleContext) {
  const authenticator = new Authenticator<TokenPair>(sessionStorageFor(context), {
    sessionKey: "oauthTokens" as never,
    throwOnError: true,
  });
  const callbackURL = new URL(GOOGLE_CALLBACK_PATH, request.url).toString();
  const returnedState = new URL(request.url).searchParams.get("state");
  authenticator.use(new ConsoleGoogleStrategy(context, callbackURL, returnedState), "google");
  return authenticator;
}

/** Only known users may use the console; anyone else goes to the login screen first. */
export async function requireSignedIn(request: Request, context: ConsoleContext) {
  const session = await getSession(request, context);
  const user = session.get("user");
  if (!user || !session.get("refresh_token")) throw redirect(loginRedirectUrl(request));
  return user;
}
