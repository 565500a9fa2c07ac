import type { AppRole, UserType } from "@contract";
import { APP_ROLES, USER_TYPES } from "@contract";
import { forbidden, notFound } from "../http/errors";
import type { Caller } from "./caller";

/**
 * The role table of DESIGN.md §4, in one place.
 *
 * | who                        | sees                         | may change                                      |
 * | super_admin / admin        | every client, Users          | everything (admin: not super_admin rows/roles)  |
 * | app role client_admin      | clients where they have a role | that client's configuration and access       |
 * | app role client_user       | clients where they have a role | nothing (read, test, download)               |
 */
export type Capability =
  | "read" // see the client and everything under it
  | "configure" // agents, knowledge, controls, appearance, integrations
  | "manage_access" // the client's access control list
  | "edit_client"; // the client record itself (url_code, country, …)

export const isStaff = (caller: Caller) => caller.userType === "super_admin" || caller.userType === "admin";

export function appRoleOf(caller: Caller, appId: number): AppRole | null {
  if (caller.userType === "super_admin") return "super_admin";
  if (caller.userType === "admin") return "admin";
  return caller.appRoles.get(appId) ?? null;
}

export function can(caller: Caller, capability: Capability, appId: number): boolean {
  const role = appRoleOf(caller, appId);
  if (!role) return false;
  if (role === "super_admin" || role === "admin") return true;
  if (capability === "read") return true;
  if (role === "client_admin") return capability !== "edit_client";
  return false;
}

/**
 * Guards a client-scoped route. A client the caller cannot see answers 404 (its existence is not
 * revealed); a client they can see but not change answers 403.
 */
export function requireApp(caller: Caller, appId: number, capability: Capability = "read") {
  if (!can(caller, "read", appId)) throw notFound("Client not found");
  if (!can(caller, capability, appId)) throw forbidden();
}

/**
 * Guards a thing found by its own id or key (a website, a stored file): one of a client the caller
 * cannot see answers exactly as one that does not exist, so ids and keys of other clients reveal
 * nothing; a client they can see but not change answers 403.
 */
export function requireFound<Row extends { appId: number | null }>(
  caller: Caller,
  row: Row | undefined,
  missing: string,
  capability: Capability = "read",
): Row & { appId: number } {
  if (!row || row.appId === null || !can(caller, "read", row.appId)) throw notFound(missing);
  requireApp(caller, row.appId, capability);
  return row as Row & { appId: number };
}

/** Global, not client-scoped: the Users screen, creating clients, the jobs dashboard. */
export function requireStaff(caller: Caller) {
  if (!isStaff(caller)) throw forbidden();
}

/** Which user types a caller may give (Users screen). */
export function assignableUserTypes(caller: Caller): UserType[] {
  if (caller.userType === "super_admin") return [...USER_TYPES];
  if (caller.userType === "admin") return ["user", "admin"];
  return [];
}

/** Which app roles a caller may grant inside a client (Access Control screen). */
export function assignableAppRoles(caller: Caller, appId: number): AppRole[] {
  const role = appRoleOf(caller, appId);
  if (role === "super_admin") return [...APP_ROLES];
  if (role === "admin") return ["client_user", "client_admin", "admin"];
  if (role === "client_admin") return ["client_user", "client_admin"];
  return [];
}
