import { eq, sql } from "drizzle-orm";
import type { AppRole, UserType } from "@contract";
import type { ApiDeps } from "../deps";
import { preparedPerDatabase } from "../db/prepared";
import { appUsers, users } from "../db/schema";
import { unauthorized } from "../http/errors";
import { signInStandsColumn, verifyUserToken } from "./tokens";

/** The signed-in user as every route sees it: roles are read fresh on each request. */
export interface Caller {
  id: number;
  email: string;
  name: string;
  userType: UserType;
  createdAt: Date;
  appRoles: Map<number, AppRole>;
}

/**
 * The user, their app roles and whether the token's sign-in still stands, in one round trip (a
 * left join and a sub-select): this runs on every authenticated API call, and on the embedded
 * database each round trip costs more than the join.
 */
const callerQuery = preparedPerDatabase((db) =>
  db
    .select({
      user: users,
      appId: appUsers.appId,
      role: appUsers.role,
      signInStands: signInStandsColumn(sql.placeholder("familyId")),
    })
    .from(users)
    .leftJoin(appUsers, eq(appUsers.userId, users.id))
    .where(eq(users.id, sql.placeholder("userId")))
    .prepare("load_caller"),
);

async function loadCaller(
  userId: number,
  familyId: string,
  deps: Pick<ApiDeps, "db">,
): Promise<(Caller & { signInStands: boolean }) | null> {
  const rows = await callerQuery(deps.db).execute({ userId, familyId });
  if (!rows.length) return null;
  const { user, signInStands } = rows[0];
  const roles = rows.flatMap((row) =>
    row.appId === null || row.role === null ? [] : [[row.appId, row.role as AppRole] as const],
  );
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    userType: user.userType as UserType,
    createdAt: user.createdAt,
    appRoles: new Map(roles),
    signInStands: Boolean(signInStands),
  };
}

export async function authenticate(header: string | undefined, deps: ApiDeps): Promise<Caller> {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!match) throw unauthorized("Authentication required");
  const { userId, familyId } = await verifyUserToken(match[1].trim(), deps);
  const loaded = await loadCaller(userId, familyId, deps);
  if (!loaded) throw unauthorized("Invalid token");
  const { signInStands, ...caller } = loaded;
  if (!signInStands) throw unauthorized("Signed out");
  return caller;
}

/**
 * The callers one console page has authenticated (server.ts hands the in-process API a new scope
 * for every browser request): a page's several API reads then load their caller once instead of
 * once each. A write in the same page clears the scope, so whatever follows it (the loaders after
 * an action) sees the caller as the write left it. Outside callers of /v1 never have a scope: it
 * exists only as an object the console passes in-process, which no header can fake.
 */
export class CallerScope {
  private readonly authenticated = new Map<string, Promise<Caller>>();

  /** Every API call of the page comes through here first: a write (public ones too) clears the scope. */
  noteCall(method: string) {
    if (method !== "GET" && method !== "HEAD") this.authenticated.clear();
  }

  /** The caller of an API call made during this page: shared between reads, fresh for a write. */
  callerOf(method: string, header: string | undefined, deps: ApiDeps): Promise<Caller> {
    if (method !== "GET" && method !== "HEAD") return authenticate(header, deps);
    const key = header ?? "";
    let caller = this.authenticated.get(key);
    if (!caller) {
      caller = authenticate(header, deps);
      this.authenticated.set(key, caller);
      // A refused token is refused again on the next call, not answered from here.
      caller.catch(() => this.authenticated.delete(key));
    }
    return caller;
  }
}

/** What the in-process console passes with each of its API calls (Hono's env of app.fetch). */
export interface ConsoleCallEnv {
  callerScope?: CallerScope;
}
