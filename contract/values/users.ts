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
 * An email address as the API takes it, checked lower-cased and trimmed (written here so the
 * browser can check it before a save without loading zod). Before the "@", zod's own rule for
 * `z.email()`: ASCII, which every mail server delivers to. The domain may be internationalised,
 * written in Unicode (пример.рф) or in its ASCII form (xn--e1afmkfd.xn--p1ai): labels of letters
 * of any script, digits and hyphens, and a top-level domain of letters or in ASCII form (xn--).
 * `isEmailAddress` also asks IDNA whether the domain is one.
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[\p{L}\p{N}][\p{L}\p{M}\p{N}-]*\.)+(?:\p{L}[\p{L}\p{M}]+|[Xx][Nn]--[A-Za-z0-9-]*[A-Za-z0-9])$/u;
export const EMAIL_INVALID = "Enter a valid email address";

/**
 * The address with its domain in the ASCII form IDNA gives it (пример.рф ⇒ xn--e1afmkfd.xn--p1ai),
 * so that an address has one spelling whichever way it was typed (browsers send an email field's
 * domain in either), or null for a domain IDNA refuses ("xn--zz.com"). The URL parser is IDNA's.
 */
export function emailInAscii(email: string): string | null {
  const at = email.lastIndexOf("@");
  const domain = email.slice(at + 1);
  if (at < 0 || !/^[\p{L}\p{M}\p{N}.-]+$/u.test(domain)) return null;
  try {
    return `${email.slice(0, at)}@${new URL(`http://${domain}`).hostname}`;
  } catch {
    return null;
  }
}

/** Whether the API takes the address (lower-cased and trimmed). */
export const isEmailAddress = (email: string) => EMAIL_PATTERN.test(email) && emailInAscii(email) !== null;
