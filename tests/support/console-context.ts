import type { LoaderFunctionArgs, SerializeFrom } from "@remix-run/node";
import { expect } from "vitest";
import type { ApiHost } from "../../api/host";
import { Throttle, type ThrottleLimits } from "../../api/http/throttle";
import type { ConsoleConfig, ConsoleContext } from "../../app/server/context.server";
import { TEST_SECRETS } from "./test-host";

export const testConsoleConfig = (overrides: Partial<ConsoleConfig> = {}): ConsoleConfig => ({
  sessionSecrets: TEST_SECRETS.sessionSecrets,
  google: null,
  devLogin: true,
  backoffice: { mode: "dev", templates: {} },
  ...overrides,
});

/** The load context server.ts builds, over a test API host; collects cookies the client appends. */
export function testContext(
  host: ApiHost,
  overrides: Partial<ConsoleConfig> = {},
  // Test files sign in over and over: the sign-in limits get their own tests.
  throttle: ThrottleLimits = { perAddressPerMinute: 10_000, perAccountPerMinute: 10_000 },
) {
  const appendedCookies: string[] = [];
  const context: ConsoleContext & { appendedCookies: string[] } = {
    apiFetch: async (request) => host.api.fetch(request),
    config: testConsoleConfig(overrides),
    secure: false,
    appendSetCookie: (cookie) => {
      appendedCookies.push(cookie);
    },
    clientAddress: "127.0.0.1",
    signInThrottle: new Throttle(throttle),
    appendedCookies,
  };
  return context;
}

/** `Set-Cookie` values ⇒ the `Cookie` header a browser would send back. */
export function cookieHeaderFrom(...setCookies: (string | null | undefined)[]) {
  return setCookies
    .filter((c): c is string => Boolean(c))
    .map((c) => c.split(";")[0])
    .join("; ");
}

export function formRequest(url: string, fields: Record<string, string>, cookie?: string) {
  return new Request(`http://localhost${url}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
  });
}

/**
 * A request as a browser sends a form of `bytes`: its length declared in its headers (what the
 * console answers a body past its bound from, without reading it), a small body standing in for it.
 */
export function declaringLength(request: Request, bytes: number) {
  const headers = new Headers(request.headers);
  headers.set("content-length", String(bytes));
  return new Request(request, { headers });
}

export const getRequest = (url: string, cookie?: string) =>
  new Request(`http://localhost${url}`, { headers: cookie ? { cookie } : {} });

/** Runs a loader or action and returns what it returned or threw, as a Response. */
export async function settle(run: () => Promise<unknown>): Promise<Response> {
  try {
    const result = await run();
    if (result instanceof Response) return result;
    return new Response(JSON.stringify(result), { status: 200 });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/**
 * Runs a route's loader as a page load does and answers its data, parsed as the page receives it;
 * anything but a 200 (a redirect, a refusal thrown) fails the test, saying what came back.
 */
export async function loaderJson<Loader extends (args: LoaderFunctionArgs) => unknown>(
  loader: Loader,
  args: LoaderFunctionArgs,
): Promise<SerializeFrom<Loader>> {
  const response = await settle(() => Promise.resolve(loader(args)));
  const { pathname, search } = new URL(args.request.url);
  const location = response.headers.get("location");
  expect(response.status, `loading ${pathname}${search}${location ? ` (sent to ${location})` : ""}`).toBe(200);
  return response.json();
}

/** Signs in through the console's development sign-in form; answers the session cookie to send. */
export async function signInToConsole(host: ApiHost, email: string) {
  const { action: loginAction } = await import("../../app/routes/login");
  const response = await settle(() =>
    loginAction({
      request: formRequest("/login", { intent: "dev", email, redirectTo: "/" }),
      context: testContext(host),
      params: {},
    }),
  );
  if (response.status !== 302) throw new Error(`dev sign-in as ${email} answered ${response.status}`);
  return cookieHeaderFrom(response.headers.get("set-cookie"));
}

/** The toast an action's redirect carries (its flash cookie), as the next page would show it. */
export async function toastOf(response: { headers: Headers }) {
  const { takeToast } = await import("../../app/server/toast.server");
  return (await takeToast(getRequest("/", cookieHeaderFrom(...response.headers.getSetCookie())))).toast;
}
