import { z } from "zod";
import { emailAddress } from "./users";

export const GoogleSignInBody = z
  .object({
    /** Authorization code from Google's redirect. */
    code: z.string().min(1).max(2048).optional(),
    /** The redirect URI the code was issued for (must match the one used to ask for it). */
    redirect_uri: z.string().max(2048).url().optional(),
    /** An ID token handed over directly (Google One Tap). */
    id_token: z.string().min(1).max(16_384).optional(),
    /** PKCE (RFC 7636): the verifier of the challenge the authorization request sent with the code's request. */
    code_verifier: z
      .string()
      .regex(/^[A-Za-z0-9._~-]{43,128}$/, "A code verifier is 43 to 128 letters, digits and . _ ~ -")
      .optional(),
    /** The nonce the authorization request sent: the ID token must carry the same. */
    nonce: z
      .string()
      .regex(/^[\x21-\x7e]{1,200}$/, "A nonce is 1 to 200 printable characters")
      .optional(),
  })
  .refine((b) => Boolean(b.code) !== Boolean(b.id_token), {
    message: "Send either code or id_token",
    path: ["code"],
  });
export type GoogleSignInBody = z.infer<typeof GoogleSignInBody>;

export const DevSignInBody = z.object({
  email: emailAddress(z.string().trim()),
});
export type DevSignInBody = z.infer<typeof DevSignInBody>;

export const TokenPair = z.object({
  user_token: z.string(),
  refresh_token: z.string(),
});
export type TokenPair = z.infer<typeof TokenPair>;

export const LogoutResult = z.object({ message: z.string() });
export type LogoutResult = z.infer<typeof LogoutResult>;

/** A refresh token is 43 characters (32 random bytes, base64url); anything far longer is none. */
const REFRESH_TOKEN_MAX_CHARS = 200;
export const RefreshBody = z.object({ refresh_token: z.string().min(1).max(REFRESH_TOKEN_MAX_CHARS) });
export type RefreshBody = z.infer<typeof RefreshBody>;
