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

/**
 * An email address as the API takes it (zod's own pattern for `z.email()`, written here so the
 * browser can check it before a save without loading zod). Checked lower-cased and trimmed.
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
export const EMAIL_INVALID = "Enter a valid email address";
