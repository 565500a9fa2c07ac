import { OAuth2Server } from "oauth2-mock-server";
import { googleConfigFromEnv } from "../../api/config";

export interface Identity {
  email: string;
  name?: string;
  /** What the token says of the address: a boolean, a string as some providers write it, or nothing. */
  email_verified?: boolean | string;
}

/**
 * A real local OpenID provider standing in for Google: it serves /authorize, /token and /jwks
 * and signs RS256 ID tokens. Every token it signs carries the identity set last.
 */
export async function startOidcProvider(port = 0) {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(port, "127.0.0.1");
  let identity: Identity = { email: "admin@example.com", name: "Administrator", email_verified: true };
  server.service.on("beforeTokenSigning", (token) => {
    Object.assign(token.payload, { email_verified: true, ...identity });
  });
  const url = server.issuer.url!;
  return {
    url,
    env: {
      GOOGLE_CLIENT_ID: "console-test-client",
      GOOGLE_CLIENT_SECRET: "console-test-secret",
      GOOGLE_AUTHORIZATION_URL: `${url}/authorize`,
      GOOGLE_TOKEN_URL: `${url}/token`,
      GOOGLE_JWKS_URL: `${url}/jwks`,
      GOOGLE_ISSUER: url,
    },
    /** The API host's Google settings for this provider. */
    get apiGoogleConfig() {
      return googleConfigFromEnv(this.env);
    },
    setIdentity(next: Identity) {
      identity = { email_verified: true, ...next };
    },
    /** An ID token as Google One Tap would post it. */
    async idToken(claims: Record<string, unknown> = {}) {
      return server.issuer.buildToken({
        scopesOrTransform: (_header, payload) =>
          Object.assign(payload, { aud: "console-test-client", ...identity, ...claims }),
      });
    },
    stop: () => server.stop(),
  };
}
