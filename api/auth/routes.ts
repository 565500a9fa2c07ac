import { createHash } from "node:crypto";
import { DevSignInBody, GoogleSignInBody, LogoutResult, RefreshBody, TokenPair, UserInfo } from "@contract";
import { HttpError, badRequest, forbidden } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { clientAddressOf, Throttle, throttleOrThrow } from "../http/throttle";
import { findSignInUser, userInfoOf } from "../users/queries";
import { exchangeGoogleCode, verifyGoogleIdToken } from "./google";
import { issueTokens, revokeRefreshFamily, rotateRefreshToken } from "./tokens";

const unknownAccount = (email: string) =>
  forbidden(`The account ${email} has no access to this console. Ask an administrator to add you.`);

/** A refresh token is counted by its hash: the account behind it is unknown until it is checked. */
const refreshKey = (token: string) => `refresh:${createHash("sha256").update(token).digest("hex")}`;

export function authRoutes(route: RouteBuilder, signIns: Throttle) {
  route({
    method: "post",
    path: "/auth/google",
    tag: "Session",
    auth: "public",
    summary:
      "Sign in with Google: exchanges an authorization code (or verifies a One Tap ID token) and issues tokens for a known user.",
    body: GoogleSignInBody,
    response: TokenPair,
    handler: async ({ body, c, deps }) => {
      // Google's code or ID token names the account only once verified: count the address first.
      await throttleOrThrow(signIns, clientAddressOf(c), null);
      const google = deps.config.google;
      if (!google) throw new HttpError(404, "Google sign-in is not configured on this server");
      const identity = body.code
        ? await exchangeGoogleCode(body.code, body.redirect_uri, google, {
            codeVerifier: body.code_verifier,
            nonce: body.nonce,
          })
        : await verifyGoogleIdToken(body.id_token!, google);
      await throttleOrThrow(signIns, null, identity.email);
      const user = await findSignInUser(identity.email, identity.name, deps);
      if (!user) {
        await signIns.failed(identity.email);
        throw unknownAccount(identity.email);
      }
      return issueTokens(user.id, deps);
    },
  });

  route({
    method: "post",
    path: "/auth/dev",
    tag: "Session",
    auth: "public",
    summary: "Development sign-in by the email of an existing user (refused in production unless AUTH_DEV_LOGIN=true).",
    body: DevSignInBody,
    response: TokenPair,
    handler: async ({ body, c, deps }) => {
      if (!deps.config.devLoginAllowed) throw forbidden("Development sign-in is disabled on this server");
      await throttleOrThrow(signIns, clientAddressOf(c), body.email);
      const user = await findSignInUser(body.email, "", deps);
      if (!user) {
        await signIns.failed(body.email);
        throw unknownAccount(body.email);
      }
      return issueTokens(user.id, deps);
    },
  });

  route({
    method: "get",
    path: "/v1/users/get_info",
    tag: "Session",
    summary: "The signed-in user, with the client apps they hold a role in.",
    response: UserInfo,
    handler: async ({ caller }) => userInfoOf(caller),
  });

  route({
    method: "post",
    path: "/v1/users/generate_access_token",
    tag: "Session",
    auth: "public",
    summary:
      "Rotates a refresh token into a new token pair. Authenticated by the refresh token itself (the user token may have expired). Reusing a rotated token revokes its family.",
    body: RefreshBody,
    response: TokenPair,
    handler: async ({ body, c, deps }) => {
      if (!body.refresh_token) throw badRequest("refresh_token is required");
      const key = refreshKey(body.refresh_token);
      await throttleOrThrow(signIns, clientAddressOf(c), key);
      try {
        return await rotateRefreshToken(body.refresh_token, deps);
      } catch (error) {
        if (error instanceof HttpError && error.status < 500) await signIns.failed(key);
        throw error;
      }
    },
  });

  route({
    method: "post",
    path: "/v1/users/logout",
    tag: "Session",
    auth: "public",
    summary: "Signs out: revokes the refresh token and every token rotated from the same sign-in.",
    body: RefreshBody,
    response: LogoutResult,
    handler: async ({ body, deps }) => {
      await revokeRefreshFamily(body.refresh_token, deps);
      return { message: "Ok" };
    },
  });
}
