import { eq } from "drizzle-orm";
import { emailInAscii, type UserInfo } from "@contract";
import type { Caller } from "../auth/caller";
import type { ApiDeps } from "../deps";
import { users } from "../db/schema";

/**
 * Finds the account allowed to sign in with this email. ADMIN_EMAIL may always sign in: its row
 * is created as super_admin on first use, so a fresh install can never lock its owner out.
 */
export async function findSignInUser(email: string, name: string, deps: Pick<ApiDeps, "db" | "config">) {
  // One spelling of an address, as accounts are saved (an identity provider may give the domain in Unicode).
  const normalised = emailInAscii(email.trim().toLowerCase()) ?? email.trim().toLowerCase();
  const [existing] = await deps.db.select().from(users).where(eq(users.email, normalised));
  if (existing) {
    if (!existing.name && name) await deps.db.update(users).set({ name }).where(eq(users.id, existing.id));
    return existing;
  }
  if (normalised !== deps.config.adminEmail) return null;
  const [created] = await deps.db
    .insert(users)
    .values({ email: normalised, name: name || "Administrator", userType: "super_admin" })
    .onConflictDoNothing()
    .returning();
  return created ?? (await deps.db.select().from(users).where(eq(users.email, normalised)))[0] ?? null;
}

export function userInfoOf(caller: Caller): UserInfo {
  return {
    id: caller.id,
    email: caller.email,
    name: caller.name,
    user_type: caller.userType,
    created_at: caller.createdAt.toISOString(),
    app_roles: [...caller.appRoles].map(([app_id, role]) => ({ app_id, role })),
  };
}
