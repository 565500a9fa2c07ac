import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose";
import { USER_NAME_MAX_CHARS } from "@contract";
import { REFUSED_CHARACTERS } from "@contract/text";
import type { GoogleConfig } from "../config";
import { HttpError, badRequest } from "../http/errors";

export interface GoogleIdentity {
  email: string;
  name: string;
}

const keySets = new Map<string, JWTVerifyGetKey>();
function keySetFor(jwksUrl: string) {
  let keys = keySets.get(jwksUrl);
  if (!keys) keySets.set(jwksUrl, (keys = createRemoteJWKSet(new URL(jwksUrl))));
  return keys;
}

/** Verifies a Google ID token: signature against Google's keys, issuer, audience, expiry, a verified address. */
export async function verifyGoogleIdToken(
  idToken: string,
  google: GoogleConfig,
  /** The nonce the authorization request sent, when it sent one: the token must carry it. */
  nonce?: string,
): Promise<GoogleIdentity> {
  let payload;
  try {
    ({ payload } = await jwtVerify(idToken, keySetFor(google.jwksUrl), {
      issuer: google.issuers,
      audience: google.clientId,
      // jose checks expiry only when the claim is there: a token without one would never lapse.
      requiredClaims: ["exp", "iat"],
    }));
  } catch (error) {
    throw new HttpError(401, `Google sign-in could not be verified: ${(error as Error).message}`);
  }
  if (nonce !== undefined && payload.nonce !== nonce)
    throw new HttpError(401, "Google sign-in could not be verified: the ID token was issued for another sign-in");
  const email = typeof payload.email === "string" ? payload.email.toLowerCase() : "";
  if (!email) throw new HttpError(401, "Google did not share an email address for this account");
  // Only a claim that says verified lets the address stand for the person: a missing claim or a
  // "false" is not that (Google's older endpoints wrote the claim as the string "true").
  if (payload.email_verified !== true && payload.email_verified !== "true")
    throw new HttpError(403, `The Google account ${email} has no verified email address`);
  return { email, name: typeof payload.name === "string" ? providedName(payload.name) : "" };
}

/**
 * A name as the provider gives it, made fit to store: whatever a person typed into their account
 * there, without control and direction characters (spaces instead), on one line, at most as long
 * as a name the console takes. Signing in is never refused for it.
 */
function providedName(name: string) {
  const clean = name.replace(REFUSED_CHARACTERS, " ").replace(/\s+/g, " ").trim();
  return Array.from(clean).slice(0, USER_NAME_MAX_CHARS).join("").trim();
}

/** Exchanges an authorization code at Google's token endpoint and verifies the ID token it returns. */
export async function exchangeGoogleCode(
  code: string,
  redirectUri: string | undefined,
  google: GoogleConfig,
  binding: { codeVerifier?: string; nonce?: string } = {},
) {
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    client_id: google.clientId,
    client_secret: google.clientSecret,
  });
  if (redirectUri) form.set("redirect_uri", redirectUri);
  if (binding.codeVerifier) form.set("code_verifier", binding.codeVerifier);
  let response: Response;
  try {
    response = await fetch(google.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new HttpError(503, `Google could not be reached: ${(error as Error).message}`);
  }
  const body = (await response.json().catch(() => ({}))) as {
    id_token?: string;
    error?: string;
    error_description?: string;
  };
  if (!response.ok) {
    throw badRequest(`Google refused the sign-in code: ${body.error_description ?? body.error ?? response.status}`);
  }
  if (!body.id_token) throw badRequest("Google answered without an ID token");
  return verifyGoogleIdToken(body.id_token, google, binding.nonce);
}
