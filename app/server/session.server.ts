import { createCookieSessionStorage, type Session, type SessionStorage } from "@remix-run/node";
import type { UserInfo } from "@contract";
import type { ConsoleContext } from "./context.server";
import { createSealedCookie } from "./sealed-cookie.server";

/**
 * Who signed in, as the cookie keeps it. Their roles are not kept: pages read them from the API,
 * and a person with roles in many clients would make the cookie larger than a browser keeps.
 */
export type SessionUser = Pick<UserInfo, "id" | "email" | "name" | "user_type">;

export interface SessionData {
  user_token: string;
  refresh_token: string;
  user: SessionUser;
}
export type ConsoleSession = Session<SessionData, { authError: string }>;

/** The session cookie's name. */
export const SESSION_COOKIE = "__session";

const storages = new Map<string, SessionStorage<SessionData, { authError: string }>>();

/** One storage per secret list and scheme (the cookie is encrypted: docs/decisions/016): the Secure flag follows whether the request came over HTTPS. */
export function sessionStorageFor(context: Pick<ConsoleContext, "config" | "secure">) {
  const key = `${context.secure}:${context.config.sessionSecrets.join(",")}`;
  let storage = storages.get(key);
  if (!storage) {
    storage = createCookieSessionStorage<SessionData, { authError: string }>({
      cookie: createSealedCookie(SESSION_COOKIE, {
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: context.secure,
        secrets: context.config.sessionSecrets,
        maxAge: 60 * 60 * 24 * 30,
      }),
    });
    storages.set(key, storage);
  }
  return storage;
}

const sessions = new WeakMap<Request, Promise<ConsoleSession>>();

/**
 * The session of this request, read once: loaders, the API client and the auth helpers of one
 * request share the same object, so tokens refreshed by one are seen by the others.
 */
export function getSession(
  request: Request,
  context: Pick<ConsoleContext, "config" | "secure">,
): Promise<ConsoleSession> {
  let session = sessions.get(request);
  if (!session) {
    session = sessionStorageFor(context).getSession(request.headers.get("Cookie"));
    sessions.set(request, session);
  }
  return session;
}

export async function commitSession(session: ConsoleSession, context: Pick<ConsoleContext, "config" | "secure">) {
  return sessionStorageFor(context).commitSession(session);
}

export async function destroySession(session: ConsoleSession, context: Pick<ConsoleContext, "config" | "secure">) {
  return sessionStorageFor(context).destroySession(session);
}
