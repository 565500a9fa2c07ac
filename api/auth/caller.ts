import { eq } from "drizzle-orm";
import type { AppRole, UserType } from "../../contract";
import type { ApiDeps } from "../deps";
import { appUsers, users } from "../db/schema";
import { unauthorized } from "../http/errors";
import { signInStands, verifyUserToken } from "./tokens";

/** The signed-in user as every route sees it: roles are read fresh on each request. */
export interface Caller {
  id: number;
  email: string;
  name: string;
  userType: UserType;
  createdAt: Date;
  appRoles: Map<number, AppRole>;
}

export async function loadCaller(userId: number, deps: Pick<ApiDeps, "db">): Promise<Caller | null> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const roles = await deps.db.select().from(appUsers).where(eq(appUsers.userId, userId));
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    userType: user.userType as UserType,
    createdAt: user.createdAt,
    appRoles: new Map(roles.map((r) => [r.appId, r.role as AppRole])),
  };
}

export async function authenticate(header: string | undefined, deps: ApiDeps): Promise<Caller> {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!match) throw unauthorized("Authentication required");
  const { userId, familyId } = await verifyUserToken(match[1].trim(), deps);
  const [caller, stands] = await Promise.all([loadCaller(userId, deps), signInStands(familyId, deps)]);
  if (!caller) throw unauthorized("Invalid token");
  if (!stands) throw unauthorized("Signed out");
  return caller;
}
