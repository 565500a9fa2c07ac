import type { EntryContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { keepRefusalHeaders } from "./error-headers.server";

/** What Remix's static handler holds after a child route's loader threw a refusal with `headers`. */
function contextAfterRefusal(headers: Record<string, string>) {
  const staticHandlerContext = {
    matches: [{ route: { id: "root" } }, { route: { id: "routes/page" } }],
    loaderData: { root: { signedIn: true } },
    loaderHeaders: { root: new Headers({ "Retry-After": "999" }), "routes/page": new Headers(headers) },
    actionData: null,
    actionHeaders: {},
    errors: { "routes/page": { status: 429 } },
  };
  return { staticHandlerContext } as unknown as EntryContext;
}

describe("the page drawn for a refusal", () => {
  it("says again when to come back and how to authenticate, from the answer that failed", () => {
    const page = new Headers({ "Content-Type": "text/html" });
    keepRefusalHeaders(429, page, contextAfterRefusal({ "Retry-After": "30", "X-Other": "no" }));
    expect(page.get("retry-after")).toBe("30");
    expect(page.has("x-other")).toBe(false);
    const signIn = new Headers();
    keepRefusalHeaders(401, signIn, contextAfterRefusal({ "WWW-Authenticate": "Bearer" }));
    expect(signIn.get("www-authenticate")).toBe("Bearer");
  });

  it("leaves a page that did not fail as it is", () => {
    const page = new Headers();
    keepRefusalHeaders(200, page, contextAfterRefusal({ "Retry-After": "30" }));
    expect(page.has("retry-after")).toBe(false);
  });
});
