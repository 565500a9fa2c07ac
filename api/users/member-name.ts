import { and, eq, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { appUsers, users } from "../db/schema";

/**
 * The join that finds, beside `users`, the membership in the same client of whoever `userId` names:
 * `leftJoin(appUsers, membershipOf(appId, userId))`.
 */
export const membershipOf = (appId: PgColumn, userId: PgColumn) =>
  and(eq(appUsers.appId, appId), eq(appUsers.userId, userId));

/**
 * A person as one client knows them (docs/decisions/032): the name the client gave its member, not
 * the account's, which another client may have chosen. Staff, who belong to no client, go by their
 * account's name. Needs `users` and `appUsers` (joined with `membershipOf`) in the query.
 */
export const nameInClient: SQL<string | null> = sql<string | null>`coalesce(${appUsers.name}, ${users.name})`;
