import { DevSignInBody, GoogleSignInBody, LogoutResult, RefreshBody, TokenPair, UserInfo } from "../../contract";
import { HttpError, badRequest, forbidden } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { findSignInUser, userInfoOf } from "../users/queries";
import { exchangeGoogleCode, verifyGoogleIdToken } from "./google";
import { issueTokens, revokeRefreshFamily, rotateRefreshToken } from "./tokens";

const unknownAccount = (email: string) =>
  forbidden(`The account ${email} has no access to this console. Ask an administrator to add you.`);

export function authRoutes(route: RouteBuilder) {
  route({
    method: "post", path: "/auth/google", tag: "Session", auth: "public",
    summary: "Sign in with Google: exchanges an authorization code (or verifies a One Tap ID token) and issues tokens for a known user.",
    body: GoogleSignInBody, response: TokenPair,
    handler: async ({ body, deps }) => {
      const google = deps.config.google;
      if (!google) throw new HttpError(503, "Google sign-in is not configured on this server");
      const identity = body.code
        ? await exchangeGoogleCode(body.code, body.redirect_uri, google)
        : await verifyGoogleIdToken(body.id_token!, google);
      const user = await findSignInUser(identity.email, identity.name, deps);
      if (!user) throw unknownAccount(identity.email);
      return issueTokens(user.id, deps);
    },
  });

  route({
    method: "post", path: "/auth/dev", tag: "Session", auth: "public",
    summary: "Development sign-in by the email of an existing user (refused in production unless AUTH_DEV_LOGIN=true).",
    body: DevSignInBody, response: TokenPair,
    handler: async ({ body, deps }) => {
      if (!deps.config.devLoginAllowed) throw forbidden("Development sign-in is disabled on this server");
      const user = await findSignInUser(body.email, "", deps);
      if (!user) throw unknownAccount(body.email);
      return issueTokens(user.id, deps);
    },
  });

  route({
    method: "get", path: "/v1/users/get_info", tag: "Session",
    summary: "The signed-in user, with the client apps they hold a role in.",
    response: UserInfo,
    handler: async ({ caller }) => userInfoOf(caller),
  });

  route({
    method: "post", path: "/v1/users/generate_access_token", tag: "Session", auth: "public",
    summary: "Rotates a refresh token into a new token pair. Authenticated by the refresh token itself (the user token may have expired). Reusing a rotated token revokes its family.",
    body: RefreshBody, response: TokenPair,
    handler: async ({ body, deps }) => {
      if (!body.refresh_token) throw badRequest("refresh_token is required");
      return rotateRefreshToken(body.refresh_token, deps);
    },
  });

  route({
    method: "post", path: "/v1/users/logout", tag: "Session", auth: "public",
    summary: "Signs out: revokes the refresh token and every token rotated from the same sign-in.",
    body: RefreshBody, response: LogoutResult,
    handler: async ({ body, deps }) => {
      await revokeRefreshFamily(body.refresh_token, deps);
      return { message: "Ok" };
    },
  });
}
