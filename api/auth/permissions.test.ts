import { describe, expect, it } from "vitest";
import type { AppRole, UserType } from "@contract";
import type { Caller } from "./caller";
import { assignableAppRoles, assignableUserTypes, can, requireApp, type Capability } from "./permissions";

const caller = (userType: UserType, roles: Record<number, AppRole> = {}): Caller => ({
  id: 1,
  email: "x@example.com",
  name: "X",
  userType,
  createdAt: new Date(),
  appRoles: new Map(Object.entries(roles).map(([k, v]) => [Number(k), v])),
});
const capabilities: Capability[] = ["read", "configure", "manage_access", "edit_client"];
const allowed = (c: Caller, appId: number) => capabilities.filter((cap) => can(c, cap, appId));

describe("the role table", () => {
  it("lets staff do everything on every client", () => {
    expect(allowed(caller("super_admin"), 7)).toEqual(capabilities);
    expect(allowed(caller("admin"), 7)).toEqual(capabilities);
  });

  it("lets a client_admin configure and manage access of their client, not edit its record", () => {
    const c = caller("user", { 1: "client_admin" });
    expect(allowed(c, 1)).toEqual(["read", "configure", "manage_access"]);
    expect(allowed(c, 2)).toEqual([]);
  });

  it("lets a client_user only read their client", () => {
    expect(allowed(caller("user", { 1: "client_user" }), 1)).toEqual(["read"]);
  });

  it("hides foreign clients (404) and refuses read-only writes (403)", () => {
    const c = caller("user", { 1: "client_user" });
    expect(() => requireApp(c, 2)).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => requireApp(c, 1, "configure")).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => requireApp(c, 1)).not.toThrow();
  });

  it("offers roles by the caller's standing", () => {
    expect(assignableUserTypes(caller("super_admin"))).toEqual(["user", "admin", "super_admin"]);
    expect(assignableUserTypes(caller("admin"))).toEqual(["user", "admin"]);
    expect(assignableUserTypes(caller("user", { 1: "client_admin" }))).toEqual([]);
    expect(assignableAppRoles(caller("super_admin"), 1)).toEqual([
      "client_user",
      "client_admin",
      "admin",
      "super_admin",
    ]);
    expect(assignableAppRoles(caller("admin"), 1)).toEqual(["client_user", "client_admin", "admin"]);
    expect(assignableAppRoles(caller("user", { 1: "client_admin" }), 1)).toEqual(["client_user", "client_admin"]);
    expect(assignableAppRoles(caller("user", { 1: "client_user" }), 1)).toEqual([]);
  });
});
