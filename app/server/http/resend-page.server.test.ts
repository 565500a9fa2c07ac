import { describe, expect, it } from "vitest";
import { NOT_SAVED_JUST_NOW, refreshLimitedNotSaved, saysNotSavedJustNow } from "~/lib/messages";
import { newRequestScope } from "../context.server";
import { postToOfferAgain, resendPage, unsavedPostAnswer } from "./resend-page.server";

const POST = {
  to: "/northfield/controls?index",
  fields: [
    ["intent", "save"],
    ["note", 'Say "hi" <b>&'],
  ] as [string, string][],
};

describe("the page that offers a post again", () => {
  it("holds every field in a form that sends them where they went, says it was not saved, and runs no script", () => {
    const html = resendPage(POST);
    expect(html).toContain(`<p role="alert">${NOT_SAVED_JUST_NOW}</p>`);
    expect(html).toContain(
      '<form method="post" action="/northfield/controls?index"><input type="hidden" name="intent" value="save">' +
        '<input type="hidden" name="note" value="Say &#34;hi&#34; &#60;b&#62;&#38;"><button type="submit">Try again</button></form>',
    );
    expect(html).toContain('<a href="/northfield/controls">');
    expect(html).not.toContain("<script");
  });

  it("answers a post whose page is an error screen under a 503, and nothing else", () => {
    const scope = { ...newRequestScope(), interruptedPost: POST };
    const post = new Request("http://localhost/northfield/controls?index", { method: "POST" });
    const failed = { staticHandlerContext: { errors: { root: {} } } } as never;
    const drawn = { staticHandlerContext: { errors: null } } as never;
    expect(postToOfferAgain(post, 503, failed, { requestScope: scope })).toEqual(POST);
    // The page came back with the form and what was typed: nothing to offer.
    expect(postToOfferAgain(post, 503, drawn, { requestScope: scope })).toBeNull();
    expect(postToOfferAgain(post, 500, failed, { requestScope: scope })).toBeNull();
    expect(postToOfferAgain(new Request("http://localhost/x"), 503, failed, { requestScope: scope })).toBeNull();
    expect(postToOfferAgain(post, 503, failed, { requestScope: newRequestScope() })).toBeNull();
  });
});

describe("a client-side post the API could not take", () => {
  const post = new Request("http://localhost/northfield/controls?_data=routes%2Fcontrols", { method: "POST" });
  const interrupted = { requestScope: { ...newRequestScope(), interruptedPost: POST, interruptedRetryAfter: "5" } };
  const answer = (status: number, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify({ error: NOT_SAVED_JUST_NOW, typed: "kept" }), { status, headers });

  it("is answered 503 with the API's Retry-After, whatever status the action gave its form's answer", async () => {
    for (const status of [200, 400, 503]) {
      const said = unsavedPostAnswer(answer(status), post, interrupted);
      expect(said.status).toBe(503);
      expect(said.headers.get("Retry-After")).toBe("5");
      expect(await said.json()).toEqual({ error: NOT_SAVED_JUST_NOW, typed: "kept" });
    }
  });

  it("is answered 429 with the limit's wait and words when a limit refused to renew the sign-in", async () => {
    const limited = {
      requestScope: {
        ...newRequestScope(),
        interruptedPost: POST,
        interruptedRetryAfter: "42",
        interruptedAs: { status: 429 as const, message: refreshLimitedNotSaved(42) },
      },
    };
    const said = unsavedPostAnswer(answer(200), post, limited);
    expect(said.status).toBe(429);
    expect(said.headers.get("Retry-After")).toBe("42");
    // Without JavaScript: the page offering the post again, under the limit's status and in its words.
    const document = new Request("http://localhost/northfield/controls?index", { method: "POST" });
    const failed = { staticHandlerContext: { errors: { root: {} } } } as never;
    expect(postToOfferAgain(document, 429, failed, limited)).toEqual(POST);
    expect(postToOfferAgain(document, 503, failed, limited)).toBeNull();
    expect(resendPage(POST, refreshLimitedNotSaved(42))).toContain(`<p role="alert">${refreshLimitedNotSaved(42)}</p>`);
    // The error screen with JavaScript offers the post again on either message.
    expect([NOT_SAVED_JUST_NOW, refreshLimitedNotSaved(42)].map(saysNotSavedJustNow)).toEqual([true, true]);
  });

  it("leaves redirects, errors, reads and posts the API took as they are", () => {
    const redirect = new Response(null, { status: 204, headers: { "X-Remix-Redirect": "/northfield" } });
    expect(unsavedPostAnswer(redirect, post, interrupted)).toBe(redirect);
    const thrown = answer(503, { "X-Remix-Catch": "yes" });
    expect(unsavedPostAnswer(thrown, post, interrupted)).toBe(thrown);
    const failed = answer(500, { "X-Remix-Error": "yes" });
    expect(unsavedPostAnswer(failed, post, interrupted)).toBe(failed);
    const read = answer(200);
    expect(unsavedPostAnswer(read, new Request(post.url), interrupted)).toBe(read);
    const saved = answer(200);
    expect(unsavedPostAnswer(saved, post, { requestScope: newRequestScope() })).toBe(saved);
  });
});
