import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { Cookie } from "@remix-run/node";
import { z } from "zod";
import type { Resend } from "~/lib/messages";
import type { ConsoleContext } from "./context.server";
import { postedFields } from "./http/form-data.server";
import { createSealedCookie } from "./sealed-cookie.server";

/**
 * A form posted after the session ended is not saved; without this, what was typed was lost on the
 * way through the sign-in page (an agent's prompt, a long answer). Its text fields are kept in a
 * cookie of their own for an hour, and the page the sign-in returns to offers to send them again
 * (root.tsx), with JavaScript or without. Only when the session's user is known: the cookie names
 * them, so nobody else who signs in on that browser is shown another's typing; it is sealed as the
 * session is, so nothing typed can be read from it. Files are not kept,
 * nor forms too large for a cookie: the sign-in page then says nothing was saved, as before.
 */
const UNSENT_COOKIE = "__unsent";

/**
 * The kept form, deflated and base64url-encoded, at most this long: sealed (what was typed may be a
 * secret, an integration's key say) and encoded it grows by about 1.8 times, and a browser keeps a
 * cookie of up to 4,096 bytes.
 */
const MAX_PACKED = 2_000;

const Kept = z.object({
  to: z.string().max(2_000),
  user: z.string().max(320),
  fields: z.array(z.tuple([z.string(), z.string()])),
});

const cookies = new Map<string, Cookie>();
function unsentCookie(context: Pick<ConsoleContext, "config" | "secure">) {
  const key = `${context.secure}:${context.config.sessionSecrets.join(",")}`;
  let cookie = cookies.get(key);
  if (!cookie) {
    cookie = createSealedCookie(UNSENT_COOKIE, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: context.secure,
      secrets: context.config.sessionSecrets,
      maxAge: 60 * 60,
    });
    cookies.set(key, cookie);
  }
  return cookie;
}

/** The Set-Cookie that keeps this post's text fields for `userEmail`, or null when it cannot be kept. */
export async function keepUnsentPost(
  request: Request,
  context: Pick<ConsoleContext, "config" | "secure">,
  userEmail: string | undefined,
): Promise<string | null> {
  if (!userEmail || request.method !== "POST") return null;
  const fields = await postedFields(request);
  if (!fields?.length) return null;
  const { pathname, search } = new URL(request.url);
  const kept: z.infer<typeof Kept> = { to: `${pathname}${search}`, user: userEmail, fields };
  const packed = deflateRawSync(JSON.stringify(kept)).toString("base64url");
  return packed.length > MAX_PACKED ? null : unsentCookie(context).serialize(packed);
}

/**
 * The post kept for `userEmail` to send again from `pathname`, and the Set-Cookie that forgets it:
 * it is offered once. Null when there is none for them there (a kept post stays for its own page).
 */
export async function takeUnsentPost(
  request: Request,
  context: Pick<ConsoleContext, "config" | "secure">,
  userEmail: string,
): Promise<{ resend: Resend; clearCookie: string } | null> {
  const cookie = unsentCookie(context);
  const packed: unknown = await cookie.parse(request.headers.get("Cookie"));
  if (typeof packed !== "string" || packed.length > MAX_PACKED) return null;
  let kept: z.infer<typeof Kept>;
  try {
    kept = Kept.parse(
      JSON.parse(inflateRawSync(Buffer.from(packed, "base64url"), { maxOutputLength: 64 * 1024 }).toString("utf8")),
    );
  } catch {
    return null;
  }
  const url = new URL(request.url);
  const target = new URL(kept.to, url);
  if (kept.user !== userEmail || target.origin !== url.origin || target.pathname !== url.pathname) return null;
  return { resend: { to: kept.to, fields: kept.fields }, clearCookie: await cookie.serialize("", { maxAge: 0 }) };
}

/** Whether this browser holds a kept post (the sign-in page says it will be offered again). */
export async function hasUnsentPost(request: Request, context: Pick<ConsoleContext, "config" | "secure">) {
  return typeof (await unsentCookie(context).parse(request.headers.get("Cookie"))) === "string";
}
