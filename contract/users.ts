import { z } from "zod";
import { Id, requiredText } from "./common";
import { APP_ROLES, EMAIL_INVALID, EMAIL_PATTERN, emailInAscii, USER_TYPES } from "./values/users";
export * from "./values/users";
export const UserType = z.enum(USER_TYPES);
export type UserType = z.infer<typeof UserType>;
export const AppRole = z.enum(APP_ROLES);
export type AppRole = z.infer<typeof AppRole>;

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

export const UserRow = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  user_type: UserType,
  created_at: z.string(),
});
export type UserRow = z.infer<typeof UserRow>;

export const UsersList = z.object({
  users: z.array(UserRow),
  /** The user types the caller may give (the Role column's options). */
  assignable_user_types: z.array(UserType),
});
export type UsersList = z.infer<typeof UsersList>;

/** The longest name a person is given in the console (a save's, or the one a sign-in provider gives). */
export const USER_NAME_MAX_CHARS = 200;

/**
 * An email address as accounts hold it: lower case, its domain in ASCII form (`emailInAscii`), so
 * one address typed two ways is one account.
 */
export const emailAddress = (text: z.ZodString, message = EMAIL_INVALID) =>
  text
    .toLowerCase()
    .pipe(z.email({ pattern: EMAIL_PATTERN, message }))
    // Said once: an address the pattern refuses is not asked of IDNA too.
    .refine((email) => !EMAIL_PATTERN.test(email) || emailInAscii(email) !== null, message)
    .transform((email) => emailInAscii(email) ?? email);

/** A person as a save sends them: no id for a new account. */
const PersonInput = z.object({
  id: Id.optional(),
  email: emailAddress(requiredText(320)),
  name: requiredText(USER_NAME_MAX_CHARS),
});

export const UserUpsertRow = PersonInput.extend({ user_type: UserType });
export const UsersUpsertBody = z.object({ users: z.array(UserUpsertRow).min(1, "This array is required").max(500) });
export type UsersUpsertBody = z.input<typeof UsersUpsertBody>;
export const UsersUpsertResult = z.object({ users: z.array(UserRow), message: z.string() });

/**
 * A member as the Access Control screen shows them: `id` is the membership's (what a save's row
 * `id` names) and `name` the one this client gave the person, not the account's.
 */
export const AppUserRow = UserRow.extend({
  app_user: z.object({ role: AppRole, created_at: z.string() }),
});
export type AppUserRow = z.infer<typeof AppUserRow>;

export const AppUsersList = z.object({
  users: z.array(AppUserRow),
  /** The roles the caller may grant in this client. */
  assignable_roles: z.array(AppRole),
});
export type AppUsersList = z.infer<typeof AppUsersList>;

export const AppUserUpsertRow = PersonInput.extend({
  /** Only used when the row creates a new account; defaults to user. */
  user_type: UserType.default("user"),
  /**
   * The role in this client. Left out, a new row (no id) grants client_user and a row with an id
   * keeps the member's role: renaming someone never changes their access.
   */
  app_user: z.object({ role: AppRole.optional() }).optional(),
  /** The spec's action values: add (default) or delete (remove this person's access). */
  action: z.enum(["add", "delete"]).default("add"),
});
export const AppUsersUpsertBody = z.object({
  users: z.array(AppUserUpsertRow).min(1, "This array is required").max(500),
});
export type AppUsersUpsertBody = z.input<typeof AppUsersUpsertBody>;
export const AppUsersUpsertResult = z.object({ users: z.array(AppUserRow), message: z.string() });
