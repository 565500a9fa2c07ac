import { z } from "zod";
import { emailAddress } from "@contract/users";

/*
 * The sign-in form's schema, in a module of its own so that zod reaches the browser only when the
 * form needs it: the server imports it, the form loads it on first use
 * (~/lib/use-schema-on-first-use).
 */

/** The development sign-in form: the email of an existing user. */
export const DevLoginForm = z.object({
  intent: z.literal("dev"),
  email: emailAddress(z.string({ error: "Enter your email address" }).trim()),
  redirectTo: z.string().optional(),
});
