import { z } from "zod";

/** The development sign-in form: the email of an existing user. */
export const DevLoginForm = z.object({
  intent: z.literal("dev"),
  email: z.string({ error: "Enter your email address" }).trim().toLowerCase().email("Enter a valid email address"),
  redirectTo: z.string().optional(),
});
