import { z } from "zod";

export const USER_TYPES = ["user", "admin", "super_admin"] as const;
export const UserType = z.enum(USER_TYPES);
export type UserType = z.infer<typeof UserType>;

export const APP_ROLES = ["client_user", "client_admin", "admin", "super_admin"] as const;
export const AppRole = z.enum(APP_ROLES);
export type AppRole = z.infer<typeof AppRole>;

export const USER_TYPE_LABELS: Record<UserType, string> = {
  user: "User",
  admin: "Admin",
  super_admin: "System Admin",
};
export const APP_ROLE_LABELS: Record<AppRole, string> = {
  client_user: "Client",
  client_admin: "Client Admin",
  admin: "Admin",
  super_admin: "Super Admin",
};

export const AppRoleGrant = z.object({ app_id: z.number().int(), role: AppRole });
export type AppRoleGrant = z.infer<typeof AppRoleGrant>;

/** What GET /v1/users/get_info answers: the signed-in user and the clients they hold a role in. */
export const UserInfo = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  user_type: UserType,
  created_at: z.string(),
  app_roles: z.array(AppRoleGrant),
});
export type UserInfo = z.infer<typeof UserInfo>;
