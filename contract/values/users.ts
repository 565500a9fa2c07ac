/** The users contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/users.ts). */

export const USER_TYPES = ["user", "admin", "super_admin"] as const;

export const APP_ROLES = ["client_user", "client_admin", "admin", "super_admin"] as const;

export const USER_TYPE_LABELS: Record<(typeof USER_TYPES)[number], string> = {
  user: "User",
  admin: "Admin",
  super_admin: "System Admin",
};

export const APP_ROLE_LABELS: Record<(typeof APP_ROLES)[number], string> = {
  client_user: "Client",
  client_admin: "Client Admin",
  admin: "Admin",
  super_admin: "Super Admin",
};
