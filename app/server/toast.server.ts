import { createCookie, redirect } from "@remix-run/node";
import { z } from "zod";
import { cutText } from "@contract";

const TITLE_MAX = 120;
const LINK_PATH_MAX = 2_000;
/** What a browser keeps of one cookie at the least (RFC 6265, 6.1): a larger one is dropped, and its toast with it. */
const COOKIE_BYTES_KEPT = 4_096;

export const ToastSchema = z.object({
  type: z.enum(["success", "error", "info"]).default("info"),
  title: z.string().max(TITLE_MAX).optional(),
  description: z.string().max(500),
  durationMs: z.number().int().min(1000).max(60_000).optional(),
  /**
   * A page of this console to go on to ("Open Test Questions"): a path of this server, never another
   * host. Long enough for the longest the console makes: a client's controls screen with a trigger
   * point of 100 characters, each percent-encoded as up to nine.
   */
  link: z
    .object({
      to: z
        .string()
        .max(LINK_PATH_MAX)
        .regex(/^\/(?![/\\])/, "A path of this console"),
      label: z.string().max(80),
    })
    .optional(),
});
export type Toast = z.infer<typeof ToastSchema>;
export type ToastInput = z.input<typeof ToastSchema>;

// A flash cookie of its own (not the session), so a toast survives sign-out and never bloats the session.
const toastCookie = createCookie("__toast", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 60 });

/** The Set-Cookie that shows this toast on the next page the browser renders. */
export async function toastCookieHeader(toast: ToastInput) {
  const parsed = ToastSchema.parse({
    ...toast,
    // A title may name what a person typed or imported ("Imported 4 files: Imported …"): a long one
    // is cut, with an ellipsis, rather than refused after the work it reports was done.
    title: toast.title && toast.title.length > TITLE_MAX ? `${cutText(toast.title, TITLE_MAX - 1)}…` : toast.title,
    description: cutText(toast.description, 500),
  });
  const header = await toastCookie.serialize(parsed);
  if (header.length <= COOKIE_BYTES_KEPT || !parsed.link) return header;
  // A long description beside a long link: the message matters more than the way on.
  const { link: _, ...withoutLink } = parsed;
  return toastCookie.serialize(withoutLink);
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastCookieHeader(toast));
  return redirect(url, { ...init, headers });
}

/** Reads and clears the pending toast. Anything malformed is dropped, not shown. */
export async function takeToast(request: Request): Promise<{ toast: Toast | null; clearCookie: string | null }> {
  const raw = await toastCookie.parse(request.headers.get("Cookie"));
  if (raw === null || raw === undefined) return { toast: null, clearCookie: null };
  const parsed = ToastSchema.safeParse(raw);
  return {
    toast: parsed.success ? parsed.data : null,
    clearCookie: await toastCookie.serialize("", { maxAge: 0 }),
  };
}
