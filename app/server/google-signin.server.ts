import { createCookie, redirect } from "@remix-run/node";
import { AuthorizationError } from "remix-auth";
import { TokenPair } from "@contract";
import { ApiError, LIMIT_WAIT_SECONDS, publicCall } from "./api/client.server";
import { googleAuthenticator, googleFlowBinding, safeRedirectTo, startSession } from "./auth.server";
import type { ConsoleContext } from "./context.server";
import { TOO_MANY_SIGN_INS } from "../lib/messages";
import { commitSession, getSession } from "./session.server";
import { readForm } from "./http/form-data.server";

// Where to land after Google sends the browser back; remix-auth owns the session during the hop.
const returnToCookie = createCookie("__return_to", { path: "/login", httpOnly: true, sameSite: "lax", maxAge: 600 });

/** Starts the authorization-code flow: redirects to Google's consent screen. */
export async function beginGoogleSignIn(request: Request, context: ConsoleContext) {
  if (!context.config.google) throw redirect("/login");
  await throttleSignIn(context);
  const form = await readForm(request.clone());
  const returnTo = safeRedirectTo(form.get("redirectTo"));
  try {
    await googleAuthenticator(request, context).authenticate("google", request);
  } catch (response) {
    if (response instanceof Response) {
      bindToThisFlow(response, context);
      response.headers.append("Set-Cookie", await returnToCookie.serialize(returnTo));
      throw response;
    }
    throw response;
  }
  throw redirect("/login");
}

/** Adds PKCE's challenge and OpenID's nonce, made from the request's state, to the redirect to Google. */
function bindToThisFlow(response: Response, context: ConsoleContext) {
  const location = response.headers.get("Location");
  const authorization = location ? new URL(location) : null;
  const state = authorization?.searchParams.get("state");
  if (!authorization || !state) return;
  const { codeChallenge, nonce } = googleFlowBinding(state, context);
  authorization.searchParams.set("code_challenge", codeChallenge);
  authorization.searchParams.set("code_challenge_method", "S256");
  authorization.searchParams.set("nonce", nonce);
  response.headers.set("Location", authorization.toString());
}

/**
 * Back from Google: the API exchanges the code; unknown accounts get the API's message on the login
 * screen, and a sign-in limit answers 429 with its wait.
 */
export async function finishGoogleSignIn(request: Request, context: ConsoleContext) {
  if (!context.config.google) throw redirect("/login");
  // Each callback costs a code exchange: guessed or replayed ones count against the address too.
  await throttleSignIn(context);
  const returnTo = safeRedirectTo(await returnToCookie.parse(request.headers.get("Cookie")));
  let tokens: TokenPair;
  try {
    tokens = await googleAuthenticator(request, context).authenticate("google", request);
  } catch (error) {
    if (error instanceof Response) throw error;
    // The API's sign-in limit (per address, or an account's failures) is a limit, not a failed sign-in.
    const limit = apiLimitOf(error);
    if (limit) throw tooManySignIns(limit.retryAfter);
    const message = error instanceof AuthorizationError ? error.message : "Google sign-in failed";
    console.warn(`[console] Google sign-in failed: ${message}`);
    throw await failedSignIn(request, context, message);
  }
  return startSession(request, context, tokens, returnTo);
}

/** Google One Tap posts an ID token (double-submit CSRF cookie) straight to us. */
export async function oneTapSignIn(request: Request, context: ConsoleContext) {
  await throttleSignIn(context);
  const form = await readForm(request);
  const csrfCookie = /(?:^|;\s*)g_csrf_token=([^;]+)/.exec(request.headers.get("Cookie") ?? "")?.[1];
  const credential = form.get("credential");
  if (!csrfCookie || csrfCookie !== form.get("g_csrf_token") || typeof credential !== "string") {
    throw await failedSignIn(request, context, "Google One Tap sign-in could not be verified. Please try again.");
  }
  try {
    const tokens = await publicCall(context, TokenPair, "POST", "/auth/google", { body: { id_token: credential } });
    return await startSession(request, context, tokens, "/");
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) throw tooManySignIns(error.retryAfter);
    if (error instanceof ApiError && error.status < 500) throw await failedSignIn(request, context, error.message);
    throw error;
  }
}

/** Per address: which account Google signs in is known only at the API, which counts accounts. */
async function throttleSignIn(context: ConsoleContext) {
  const wait = await context.signInThrottle.consume(context.clientAddress, null);
  if (wait !== null) throw tooManySignIns(String(wait));
}

/**
 * A sign-in refused by a limit, this server's or the API's: 429 with the limit's wait, the page
 * saying so. Not a redirect to the login screen with a flash, which could not carry either.
 */
function tooManySignIns(retryAfter: string | null) {
  return new Response(TOO_MANY_SIGN_INS, {
    status: 429,
    headers: { "Retry-After": retryAfter ?? LIMIT_WAIT_SECONDS, "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** The API's 429 behind a failed code exchange (remix-auth wraps what the strategy threw), if it was one. */
function apiLimitOf(error: unknown): ApiError | null {
  const refusal = error instanceof AuthorizationError ? error.cause : error;
  return refusal instanceof ApiError && refusal.status === 429 ? refusal : null;
}

async function failedSignIn(request: Request, context: ConsoleContext, message: string) {
  const session = await getSession(request, context);
  session.flash("authError", message);
  return redirect("/login", { headers: { "Set-Cookie": await commitSession(session, context) } });
}
