import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppRole, AppUserRow, UserRow, UserType } from "@contract";
import {
  APP_ROLE_LABELS,
  AppUsersList,
  AppUsersUpsertBody,
  AppUsersUpsertResult,
  IdParam,
  UsersList,
  UsersUpsertBody,
  USER_TYPE_LABELS,
  UsersUpsertResult,
} from "@contract";
import type { Caller } from "../auth/caller";
import { assignableAppRoles, assignableUserTypes, isStaff, requireApp, requireStaff } from "../auth/permissions";
import { appUsers, users } from "../db/schema";
import type { ApiDeps } from "../deps";
import { badRequest } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { recordChange } from "../history/record";
import { accessChange } from "./access-change";

type UserRecord = typeof users.$inferSelect;
type Tx = Parameters<Parameters<ApiDeps["db"]["transaction"]>[0]>[0];
type PostedAppUserRows = z.output<typeof AppUsersUpsertBody>["users"];
/** Rows with their role said: the posted one, or (left out) the member's own, or client_user for a new row. */
type AppUserRows = (Omit<PostedAppUserRows[number], "app_user"> & { app_user: { role: AppRole } })[];

async function withRolesSaid(appId: number, rows: PostedAppUserRows, db: ApiDeps["db"]): Promise<AppUserRows> {
  const unsaid = rows.flatMap((row) => (row.id && !row.app_user?.role ? [row.id] : []));
  const kept = unsaid.length
    ? new Map(
        (
          await db
            .select({ id: appUsers.id, role: appUsers.role })
            .from(appUsers)
            .where(and(eq(appUsers.appId, appId), inArray(appUsers.id, unsaid)))
        ).map((member) => [member.id, member.role as AppRole]),
      )
    : new Map<number, AppRole>();
  return rows.map((row) => ({
    ...row,
    app_user: { role: row.app_user?.role ?? (row.id ? kept.get(row.id) : undefined) ?? "client_user" },
  }));
}

const toUserRow = (u: UserRecord): UserRow => ({
  id: u.id,
  email: u.email,
  name: u.name,
  user_type: u.userType as UserType,
  created_at: u.createdAt.toISOString(),
});

/** Collects per-row problems so one answer names every field to fix, and nothing is written. */
class RowErrors {
  readonly errors: Record<string, string[]> = {};
  add(index: number, field: string, message: string) {
    (this.errors[`users.${index}.${field}`] ??= []).push(message);
  }
  throwIfAny() {
    if (Object.keys(this.errors).length) throw badRequest("Some rows could not be saved", this.errors);
  }
}

/**
 * The client's members, as memberships: each row's id is the membership's and its name the one this
 * client gave the person (docs/decisions/032). Staff see the account's type and age too; a Client
 * Admin sees what belongs to this client alone: the type and age are facts about the account
 * elsewhere (a linked System Admin, an account older than the grant), so they read as a `user`
 * since the grant.
 */
async function listAppUsers(caller: Caller, appId: number, deps: Pick<ApiDeps, "db">): Promise<AppUserRow[]> {
  const rows = await deps.db
    .select({ user: users, membership: appUsers })
    .from(appUsers)
    .innerJoin(users, eq(users.id, appUsers.userId))
    .where(eq(appUsers.appId, appId))
    .orderBy(asc(users.email));
  const staff = isStaff(caller);
  return rows.map(({ user, membership }) => {
    const granted = membership.createdAt.toISOString();
    return {
      id: membership.id,
      email: user.email,
      name: membership.name,
      user_type: staff ? (user.userType as UserType) : "user",
      created_at: staff ? user.createdAt.toISOString() : granted,
      app_user: { role: membership.role as AppRole, created_at: granted },
    };
  });
}

async function findByIdOrEmail(tx: Tx, id: number | undefined, email: string) {
  if (id) return (await tx.select().from(users).where(eq(users.id, id)))[0] ?? null;
  return (await tx.select().from(users).where(eq(users.email, email)))[0] ?? null;
}

/** The advisory lock a Users save holds (its second key is 0: there is one list of accounts). */
const USERS_SAVE_LOCK = 4_210_521;

async function upsertUsers(
  asCameIn: Caller,
  rows: z.output<typeof UsersUpsertBody>["users"],
  deps: Pick<ApiDeps, "db">,
) {
  return deps.db.transaction(async (tx) => {
    // One Users save at a time, each checked against its caller's type as it stands once the save
    // before it is done: two Admins demoting each other at once both succeeded, the second acting
    // on a type the first had taken away.
    await tx.execute(sql`select pg_advisory_xact_lock(${USERS_SAVE_LOCK}, 0)`);
    const [now] = await tx.select({ userType: users.userType }).from(users).where(eq(users.id, asCameIn.id));
    const caller: Caller = { ...asCameIn, userType: (now?.userType ?? asCameIn.userType) as UserType };
    requireStaff(caller);
    const allowed = assignableUserTypes(caller);
    const problems = new RowErrors();
    const existingRows: (UserRecord | null)[] = [];
    for (const [index, row] of rows.entries()) {
      // A row without id is a new person: an address already in use is refused, never overwritten.
      const existing = row.id ? await findByIdOrEmail(tx, row.id, row.email) : null;
      if (row.id && !existing) problems.add(index, "id", "This user no longer exists");
      // A role kept as stored is not given: a System Admin's row is refused by the check below, once.
      if (!allowed.includes(row.user_type) && row.user_type !== existing?.userType)
        problems.add(index, "user_type", mayNotGive(USER_TYPE_LABELS[row.user_type]));
      if (existing?.userType === "super_admin" && caller.userType !== "super_admin")
        problems.add(index, "user_type", "Only a System Admin may change a System Admin");
      if (existing?.id === caller.id && row.user_type !== caller.userType)
        problems.add(index, "user_type", "You cannot change your own role");
      const sameEmail = (await tx.select({ id: users.id }).from(users).where(eq(users.email, row.email)))[0];
      if (sameEmail && sameEmail.id !== existing?.id)
        problems.add(index, "email", `${row.email} belongs to another user`);
      if (rows.findIndex((other) => other.email === row.email) !== index)
        problems.add(index, "email", `${row.email} appears twice`);
      existingRows.push(existing);
    }
    problems.throwIfAny();
    const saved: number[] = [];
    for (const [index, row] of rows.entries()) {
      const existing = existingRows[index];
      const values = { email: row.email, name: row.name, userType: row.user_type };
      const [written] = existing
        ? await tx
            .update(users)
            .set({ ...values, updatedAt: new Date() })
            .where(eq(users.id, existing.id))
            .returning()
        : await tx.insert(users).values(values).returning();
      saved.push(written.id);
    }
    return (await tx.select().from(users).where(inArray(users.id, saved)).orderBy(asc(users.email))).map(toUserRow);
  });
}

/** A refusal names roles and account types as the screens' Role column does ("Client Admin", "System Admin"), never by their stored values. */
const withArticle = (label: string) => `${/^[AEIOU]/.test(label) ? "an" : "a"} ${label}`;
const mayNotGive = (label: string) => `You may not give the role ${label}`;
const mayNotCreate = (userType: UserType) => `You may not create ${withArticle(USER_TYPE_LABELS[userType])} account`;
const mayNotChangeAccessOf = (role: string) =>
  `You may not change the access of ${withArticle(APP_ROLE_LABELS[role as AppRole] ?? role)}`;

export const NOT_A_MEMBER = "This person is not a member of this client";
export const ONLY_SYSTEM_ADMIN_READDRESSES = "Only a System Admin may change a System Admin's email";

type Membership = typeof appUsers.$inferSelect;
interface Member {
  user: UserRecord;
  membership: Membership;
}

/** This client's member named by the row: by membership id when it has one, else by email. Null for anyone else. */
async function memberOf(tx: Tx, appId: number, row: AppUserRows[number]): Promise<Member | null> {
  const [member] = await tx
    .select({ user: users, membership: appUsers })
    .from(appUsers)
    .innerJoin(users, eq(users.id, appUsers.userId))
    .where(and(eq(appUsers.appId, appId), row.id ? eq(appUsers.id, row.id) : eq(users.email, row.email)));
  return member ?? null;
}

/**
 * A row without an id adds a person. One naming someone who already has access to this client would
 * otherwise change that member's role under a name nobody sees saved: it is refused, and the role is
 * changed on the member's own row (by its id). The client's member list is the caller's to read, so
 * the refusal tells them nothing new. Addresses arrive trimmed and lower-cased, as they are stored.
 */
const alreadyHasAccess = (email: string) =>
  `${email} already has access to this client; change their role on their own row`;

const listedTwice = (email: string) => `${email} appears twice`;

const addsAlreadyMember = (row: AppUserRows[number], member: Member | null) =>
  Boolean(member && !row.id && row.action === "add");

/**
 * A new row (no id) whose address another row of the same save also adds: two new rows, or a new
 * row beside a row with an id that sets that address. The later new row is refused, never a row with an id.
 */
const addsTwice = (rows: AppUserRows, index: number) => {
  const row = rows[index];
  if (row.id || row.action !== "add") return false;
  return rows.some(
    (other, i) =>
      i !== index && other.action === "add" && other.email === row.email && (Boolean(other.id) || i < index),
  );
};

/** Whether a row before this one (not a removal) gives the same address. */
const givenEarlier = (rows: AppUserRows, index: number) =>
  rows.some((other, i) => i < index && other.action !== "delete" && other.email === rows[index].email);

/** A row with an id edits the person as this client knows them: the name given here, or (staff only) the account's email. */
const isRenaming = (row: AppUserRows[number], member: Member) =>
  Boolean(row.id && (member.membership.name !== row.name || member.user.email !== row.email));

/**
 * Staff see every account, so naming a missing one reveals nothing to them: a row without id may
 * name any account by email that is not yet this client's member (granting access links it), and
 * a row with an id may re-address it.
 * The name is always this client's own; the account's name is the Users screen's.
 */
/**
 * The caller as they stand now, read inside the save's lock (History's lock on this client's access,
 * which the save holds): their roles were read when the request came in, and a save of the same
 * access that ran meanwhile may have changed them. Two Client Admins removing each other at once
 * would otherwise both succeed, the second acting on a role the first had taken away, and leave the
 * client with none.
 */
async function callerAsItStands(caller: Caller, appId: number, db: ApiDeps["db"]): Promise<Caller> {
  const [now] = await db
    .select({ userType: users.userType, role: appUsers.role })
    .from(users)
    .leftJoin(appUsers, and(eq(appUsers.userId, users.id), eq(appUsers.appId, appId)))
    .where(eq(users.id, caller.id));
  const appRoles = new Map(caller.appRoles);
  if (now?.role) appRoles.set(appId, now.role as AppRole);
  else appRoles.delete(appId);
  return { ...caller, userType: (now?.userType ?? caller.userType) as UserType, appRoles };
}

async function upsertAppUsers(asCameIn: Caller, appId: number, rows: AppUserRows, deps: Pick<ApiDeps, "db">) {
  const caller = await callerAsItStands(asCameIn, appId, deps.db);
  requireApp(caller, appId, "manage_access");
  if (!isStaff(caller)) return upsertAppUsersAsClientAdmin(caller, appId, rows, deps);
  const roles = assignableAppRoles(caller, appId);
  const userTypes = assignableUserTypes(caller);
  return deps.db.transaction(async (tx) => {
    const problems = new RowErrors();
    const accounts: (UserRecord | null)[] = [];
    for (const [index, row] of rows.entries()) {
      const member = await memberOf(tx, appId, row);
      const account =
        member?.user ??
        (row.id ? null : ((await tx.select().from(users).where(eq(users.email, row.email)))[0] ?? null));
      accounts.push(account);
      if (row.id && !member) problems.add(index, "id", NOT_A_MEMBER);
      if (addsAlreadyMember(row, member)) {
        problems.add(index, "email", alreadyHasAccess(row.email));
        continue;
      }
      if (addsTwice(rows, index)) problems.add(index, "email", listedTwice(row.email));
      const renaming = Boolean(member && isRenaming(row, member));
      const unchanged = row.action === "add" && member?.membership.role === row.app_user.role && !renaming;
      if (unchanged) continue; // saving a whole table resends untouched rows (with their ids): they are no-ops
      if (member && !roles.includes(member.membership.role as AppRole)) {
        problems.add(index, "app_user.role", mayNotChangeAccessOf(member.membership.role));
      }
      if (account?.id === caller.id) problems.add(index, "app_user.role", "You cannot change your own access");
      if (row.action === "delete") continue;
      if (!roles.includes(row.app_user.role))
        problems.add(index, "app_user.role", mayNotGive(APP_ROLE_LABELS[row.app_user.role]));
      if (!account && !row.id && !userTypes.includes(row.user_type)) {
        problems.add(index, "user_type", mayNotCreate(row.user_type));
      }
      // The address is the account's, which signs in everywhere: re-addressing one of a type the caller
      // may not give (a System Admin's, for staff) would hand them that account, as the Users screen refuses too.
      if (member && row.id && member.user.email !== row.email && !userTypes.includes(member.user.userType as UserType))
        problems.add(index, "email", ONLY_SYSTEM_ADMIN_READDRESSES);
      const sameEmail = (await tx.select({ id: users.id }).from(users).where(eq(users.email, row.email)))[0];
      if (member && row.id && sameEmail && sameEmail.id !== member.user.id) {
        problems.add(index, "email", `${row.email} belongs to another user`);
      } else if (account && row.id && account.email !== row.email && givenEarlier(rows, index)) {
        // Two rows giving one new address: each alone is free, together they would be one account twice.
        problems.add(index, "email", listedTwice(row.email));
      }
    }
    problems.throwIfAny();
    for (const [index, row] of rows.entries()) {
      const account = accounts[index];
      if (row.action === "delete") {
        if (account) await tx.delete(appUsers).where(and(eq(appUsers.appId, appId), eq(appUsers.userId, account.id)));
        continue;
      }
      if (account && row.id && account.email !== row.email) {
        await tx.update(users).set({ email: row.email, updatedAt: new Date() }).where(eq(users.id, account.id));
      }
      const userId =
        account?.id ??
        (await tx.insert(users).values({ email: row.email, name: row.name, userType: row.user_type }).returning())[0]
          .id;
      // A row with an id changes the role and renames the person here; a new row only grants (one naming
      // a member was refused above; a grant another save made since keeps its name).
      const role = row.app_user.role;
      await tx
        .insert(appUsers)
        .values({ appId, userId, role, name: row.name })
        .onConflictDoUpdate({
          target: [appUsers.appId, appUsers.userId],
          set: row.id ? { role, name: row.name } : { role },
        });
    }
  });
}

/**
 * Accounts are not an oracle (docs/decisions/016, 032): a Client Admin sees only their client's
 * members. Every person outside the client (no account, another client's member, staff) is handled
 * by the same statements and gets the same answer, so neither the body nor the time tells them apart:
 * - a new row (no id) grants access under the name typed: the account is created if missing, else
 *   linked untouched; the answer shows the new membership (its id, that name), never the account;
 * - a new row naming someone who already has access is refused (the list shows them anyway);
 *   their role is changed by a row with their id;
 * - a row with an id must name a member, otherwise one error whether the id exists or not;
 * - removing someone who is not a member changes nothing, like any other removal.
 */
async function upsertAppUsersAsClientAdmin(
  caller: Caller,
  appId: number,
  rows: AppUserRows,
  deps: Pick<ApiDeps, "db">,
) {
  const roles = assignableAppRoles(caller, appId);
  return deps.db.transaction(async (tx) => {
    const problems = new RowErrors();
    const plans: ({ kind: "member"; userId: number } | { kind: "link" } | null)[] = [];
    for (const [index, row] of rows.entries()) {
      const member = await memberOf(tx, appId, row);
      if (!member) {
        plans.push(row.action === "add" && !row.id ? { kind: "link" } : null);
        if (row.action === "delete") continue;
        if (row.id) {
          problems.add(index, "id", NOT_A_MEMBER);
          continue;
        }
        if (!roles.includes(row.app_user.role))
          problems.add(index, "app_user.role", mayNotGive(APP_ROLE_LABELS[row.app_user.role]));
        // Refused whether or not the address has an account: refusing only new ones would tell them apart.
        if (row.user_type !== "user") problems.add(index, "user_type", mayNotCreate(row.user_type));
        if (addsTwice(rows, index)) problems.add(index, "email", listedTwice(row.email));
        continue;
      }
      if (addsAlreadyMember(row, member)) {
        plans.push(null);
        problems.add(index, "email", alreadyHasAccess(row.email));
        continue;
      }
      // Only a row with an id edits the person or changes their role here.
      const renaming = isRenaming(row, member);
      const { role } = member.membership;
      const unchanged = row.action === "add" && role === row.app_user.role && !renaming;
      plans.push(unchanged ? null : { kind: "member", userId: member.user.id });
      if (unchanged) continue; // saving a whole table resends untouched rows (with their ids): they are no-ops
      if (!roles.includes(role as AppRole)) problems.add(index, "app_user.role", mayNotChangeAccessOf(role));
      if (member.user.id === caller.id) problems.add(index, "app_user.role", "You cannot change your own access");
      // The email is the account's, shared with every client it belongs to, so only staff change it
      // (and, as the screen offers it, the name). Refused before any look at who else holds the
      // address, which would reveal an account elsewhere.
      if (renaming) problems.add(index, "name", "Only staff can change an existing user's name or email");
      if (row.action === "add" && !roles.includes(row.app_user.role))
        problems.add(index, "app_user.role", mayNotGive(APP_ROLE_LABELS[row.app_user.role]));
    }
    problems.throwIfAny();
    for (const [index, row] of rows.entries()) {
      const plan = plans[index];
      if (!plan) continue;
      if (plan.kind === "member") {
        if (row.action === "delete")
          await tx.delete(appUsers).where(and(eq(appUsers.appId, appId), eq(appUsers.userId, plan.userId)));
        else
          await tx
            .update(appUsers)
            .set({ role: row.app_user.role })
            .where(and(eq(appUsers.appId, appId), eq(appUsers.userId, plan.userId)));
        continue;
      }
      // The same three statements whether the address is new or has an account elsewhere. An existing
      // account keeps its name, email and type; this client knows the person by the name typed here,
      // and whoever created the account never stops another client from adding the same person.
      await tx
        .insert(users)
        .values({ email: row.email, name: row.name, userType: row.user_type })
        .onConflictDoNothing({ target: users.email });
      const [account] = await tx.select({ id: users.id }).from(users).where(eq(users.email, row.email));
      // A grant that appeared since the check above (another save) is kept, not overwritten with a role
      // this caller might not be allowed to change.
      await tx
        .insert(appUsers)
        .values({ appId, userId: account.id, role: row.app_user.role, name: row.name })
        .onConflictDoNothing();
    }
  });
}

export function userRoutes(route: RouteBuilder) {
  route({
    method: "get",
    path: "/v1/users",
    tag: "Users",
    summary: "Every user (staff only), with the roles the caller may give.",
    response: UsersList,
    handler: async ({ caller, deps }) => {
      requireStaff(caller);
      const rows = await deps.db.select().from(users).orderBy(asc(users.email));
      return { users: rows.map(toUserRow), assignable_user_types: assignableUserTypes(caller) };
    },
  });

  route({
    method: "post",
    path: "/v1/users/upsert",
    tag: "Users",
    summary: "Creates or updates users (by id, else by email). Every row is checked first; one bad row saves nothing.",
    body: UsersUpsertBody,
    response: UsersUpsertResult,
    handler: async ({ body, caller, deps }) => {
      requireStaff(caller);
      const saved = await upsertUsers(caller, body.users, deps);
      return { users: saved, message: `${saved.length} user${saved.length === 1 ? "" : "s"} saved` };
    },
  });

  const AppParams = z.object({ appId: IdParam });
  route({
    method: "get",
    path: "/v1/apps/:appId/users",
    tag: "Users",
    summary:
      "The client's members with their app_user.role (each row's id and name are the membership's), and the roles the caller may grant.",
    params: AppParams,
    response: AppUsersList,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId);
      return {
        users: await listAppUsers(caller, params.appId, deps),
        assignable_roles: assignableAppRoles(caller, params.appId),
      };
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/users/upsert",
    tag: "Users",
    summary:
      "Grants (a row without id; an address that already has access is refused), changes (a row with the membership's id) or removes (action delete) access to the client; unknown emails become new users.",
    params: AppParams,
    body: AppUsersUpsertBody,
    response: AppUsersUpsertResult,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "manage_access");
      await recordChange(deps, caller, accessChange(params.appId), async (db) =>
        upsertAppUsers(caller, params.appId, await withRolesSaid(params.appId, body.users, db), { db }),
      );
      return { users: await listAppUsers(caller, params.appId, deps), message: "Access saved" };
    },
  });
}
