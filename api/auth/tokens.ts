import { createHash, createSecretKey, randomBytes, randomUUID, type KeyObject } from "node:crypto";
import { and, eq, isNull, lt, or, sql, type Placeholder } from "drizzle-orm";
import { SignJWT, jwtVerify } from "jose";
import type { TokenPair } from "@contract";
import type { ApiDeps } from "../deps";
import { refreshTokens } from "../db/schema";
import { unauthorized } from "../http/errors";

const ISSUER = "assistant-console-api";
const encoder = new TextEncoder();

/**
 * The HMAC key of a secret, made once: handing jose the raw bytes makes it import a new key on every
 * verification, which was a visible share of each API call's CPU time.
 */
const signingKeys = new Map<string, KeyObject>();
function signingKeyOf(secret: string) {
  let key = signingKeys.get(secret);
  if (!key) {
    key = createSecretKey(encoder.encode(secret));
    signingKeys.set(secret, key);
  }
  return key;
}
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * A user token names its sign-in (`sid`, the refresh token family): signing out revokes the
 * family, and with it every user token of that sign-in at once, not at expiry.
 */
export async function signUserToken(userId: number, familyId: string, deps: Pick<ApiDeps, "config">) {
  return new SignJWT({ typ: "user", sid: familyId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(userId))
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${deps.config.accessTokenTtlSeconds}s`)
    .sign(signingKeyOf(deps.config.jwtSecret));
}

/**
 * Tokens whose signature was checked, with what they say: a console page calls the API several
 * times with the same token, and each check is an HMAC through WebCrypto's job queue. Only the
 * expiry can change a verified token's answer, and it is checked on every use; whether the
 * sign-in still stands is read from the database on every call (caller.ts).
 */
const verifiedTokens = new Map<string, { secret: string; userId: number; familyId: string; expiresAt: number }>();
const MAX_VERIFIED_TOKENS = 1000;

function rememberVerified(
  token: string,
  entry: { secret: string; userId: number; familyId: string; expiresAt: number },
) {
  if (verifiedTokens.size >= MAX_VERIFIED_TOKENS) verifiedTokens.delete(verifiedTokens.keys().next().value!);
  verifiedTokens.set(token, entry);
}

/** The user and sign-in of a valid, unexpired user token, or throws 401. */
export async function verifyUserToken(
  token: string,
  deps: Pick<ApiDeps, "config">,
): Promise<{ userId: number; familyId: string }> {
  const known = verifiedTokens.get(token);
  if (known && known.secret === deps.config.jwtSecret) {
    // As jose decides it: expired once the current second reaches `exp`.
    if (known.expiresAt <= Math.floor(Date.now() / 1000)) throw unauthorized("Token expired");
    return { userId: known.userId, familyId: known.familyId };
  }
  try {
    const { payload } = await jwtVerify(token, signingKeyOf(deps.config.jwtSecret), {
      issuer: ISSUER,
      algorithms: ["HS256"],
    });
    const id = Number(payload.sub);
    if (
      payload.typ !== "user" ||
      !Number.isInteger(id) ||
      typeof payload.sid !== "string" ||
      typeof payload.exp !== "number"
    )
      throw new Error("wrong token type");
    rememberVerified(token, {
      secret: deps.config.jwtSecret,
      userId: id,
      familyId: payload.sid,
      expiresAt: payload.exp,
    });
    return { userId: id, familyId: payload.sid };
  } catch (error) {
    const expired = error instanceof Error && "code" in error && error.code === "ERR_JWT_EXPIRED";
    throw unauthorized(expired ? "Token expired" : "Invalid token");
  }
}

async function insertRefreshToken(userId: number, familyId: string, expiresAt: Date, deps: Pick<ApiDeps, "db">) {
  const token = randomBytes(32).toString("base64url");
  await deps.db.insert(refreshTokens).values({ userId, familyId, tokenHash: hashToken(token), expiresAt });
  return token;
}

/**
 * A new sign-in: a new token family, which lasts REFRESH_TOKEN_TTL_DAYS from now however often it
 * is used (each rotation keeps the family's end): a stolen session cannot be kept alive forever
 * by using it, and everyone signs in again at least that often.
 */
export async function issueTokens(userId: number, deps: Pick<ApiDeps, "db" | "config">): Promise<TokenPair> {
  const familyId = randomUUID();
  const endsAt = new Date(Date.now() + deps.config.refreshTokenTtlDays * 86_400_000);
  const refresh_token = await insertRefreshToken(userId, familyId, endsAt, deps);
  return { user_token: await signUserToken(userId, familyId, deps), refresh_token };
}

/**
 * Exchanges a refresh token for a new pair. The presented token is marked used in the same
 * statement that checks it (so two concurrent refreshes cannot both win); presenting a used
 * token again revokes its whole family, logging out whoever holds the stolen copy.
 */
export async function rotateRefreshToken(
  token: string,
  deps: Pick<ApiDeps, "db" | "config" | "log">,
): Promise<TokenPair> {
  const tokenHash = hashToken(token);
  const now = new Date();
  const [claimed] = await deps.db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
    .returning();
  if (!claimed) {
    const [existing] = await deps.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
    if (existing?.usedAt && !existing.revokedAt) {
      deps.log.warn(`refresh token reuse detected for user ${existing.userId}; revoking family ${existing.familyId}`);
      await deps.db.update(refreshTokens).set({ revokedAt: now }).where(eq(refreshTokens.familyId, existing.familyId));
    }
    throw unauthorized("Invalid refresh token");
  }
  if (claimed.expiresAt < now) throw unauthorized("Refresh token expired");
  const refresh_token = await insertRefreshToken(claimed.userId, claimed.familyId, claimed.expiresAt, deps);
  return { user_token: await signUserToken(claimed.userId, claimed.familyId, deps), refresh_token };
}

/**
 * Whether a sign-in (its refresh-token family) still stands: some token of the family is not
 * revoked (sign-out revokes them all). A column for the caller's query, which is prepared, so the
 * family may be a placeholder.
 */
export const signInStandsColumn = (familyId: string | Placeholder) =>
  sql<boolean>`exists (select 1 from refresh_tokens live where live.family_id = ${familyId} and live.revoked_at is null)`;

/** Sign-out: the presented refresh token's whole family stops working. Unknown tokens are ignored. */
export async function revokeRefreshFamily(token: string, deps: Pick<ApiDeps, "db">) {
  const [row] = await deps.db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(token)));
  if (!row) return false;
  await deps.db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
  return true;
}

/** Housekeeping job: drops tokens that can no longer be used. */
export async function purgeDeadRefreshTokens(deps: Pick<ApiDeps, "db">, olderThan = new Date()) {
  const deleted = await deps.db
    .delete(refreshTokens)
    .where(or(lt(refreshTokens.expiresAt, olderThan), lt(refreshTokens.revokedAt, olderThan)))
    .returning({ id: refreshTokens.id });
  return deleted.length;
}
