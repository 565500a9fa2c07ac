import { json } from "@remix-run/node";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { redirectWithToast } from "../../app/server/toast.server";

const redirectTo = (location: string, status = 302) => new Response(null, { status, headers: { location } });

/** The message an expectation fails with, without the colours a terminal would show. */
async function failureOf(expectation: () => unknown) {
  try {
    await expectation();
  } catch (error) {
    return stripVTControlCharacters((error as Error).message);
  }
  throw new Error("the expectation passed");
}

describe("toHaveRedirect", () => {
  it("passes for a 302 to the address, or one the pattern matches", () => {
    expect(redirectTo("/northfield")).toHaveRedirect("/northfield");
    expect(redirectTo("/storage/download?key=a")).toHaveRedirect(/^\/storage\/download\?/);
    expect(redirectTo("/anywhere")).toHaveRedirect();
  });

  it("fails for a redirect elsewhere, naming both addresses", async () => {
    expect(await failureOf(() => expect(redirectTo("/login")).toHaveRedirect("/northfield"))).toBe(
      'Expected the response to be a 302 redirect to "/northfield", but it was a 302 to "/login"',
    );
    expect(await failureOf(() => expect(redirectTo("/login")).toHaveRedirect(/^\/northfield/))).toBe(
      'Expected the response to be a 302 redirect to /^\\/northfield/, but it was a 302 to "/login"',
    );
  });

  it("fails for an answer that is not a redirect, giving its status", async () => {
    expect(await failureOf(() => expect(json({ ok: true })).toHaveRedirect("/northfield"))).toBe(
      'Expected the response to be a 302 redirect to "/northfield", but it was a 200 without a Location',
    );
    expect(await failureOf(() => expect(json({ ok: true }, { status: 400 })).toHaveRedirect())).toBe(
      "Expected the response to be a 302 redirect, but it was a 400 without a Location",
    );
  });

  it("holds to the status: 302 unless another is named", async () => {
    expect(await failureOf(() => expect(redirectTo("/northfield", 303)).toHaveRedirect("/northfield"))).toBe(
      'Expected the response to be a 302 redirect to "/northfield", but it was a 303 to "/northfield"',
    );
    expect(redirectTo("/northfield", 303)).toHaveRedirect("/northfield", 303);
  });

  it("negated, fails for the redirect it names and passes otherwise", async () => {
    expect(await failureOf(() => expect(redirectTo("/login")).not.toHaveRedirect("/login"))).toBe(
      'Expected the response not to be a 302 redirect to "/login", but it was a 302 to "/login"',
    );
    expect(redirectTo("/login")).not.toHaveRedirect("/northfield");
    expect(json({})).not.toHaveRedirect();
  });

  it("fails for something that is not a response", async () => {
    expect(await failureOf(() => expect({ status: 302 }).toHaveRedirect("/x"))).toMatch(
      /^Expected a Response, received/,
    );
  });
});

describe("toSendToast", () => {
  const saved = () => redirectWithToast("/northfield", { type: "success", description: "Saved" });

  it("passes for the toast the flash cookie carries, as the next page shows it", async () => {
    await expect(await saved()).toSendToast({ type: "success", description: "Saved" });
    await expect(await redirectWithToast("/", { description: "Noted" })).toSendToast({
      type: "info",
      description: "Noted",
    });
    await expect(await saved()).toSendToast();
  });

  it("takes asymmetric matchers for parts of the toast", async () => {
    await expect(await saved()).toSendToast({ type: "success", description: expect.stringMatching(/^Sav/) });
  });

  it("fails for another toast, showing the difference", async () => {
    const message = await failureOf(() =>
      expect(saved()).resolves.toSendToast({ type: "error", description: "Saved" }),
    );
    expect(message).toMatch(/^Expected the response to send the toast:/);
    expect(message).toMatch(/- +"type": "error",/);
    expect(message).toMatch(/\+ +"type": "success",/);
  });

  it("fails for a toast with fields the expectation leaves out", async () => {
    const linked = await redirectWithToast("/", {
      type: "success",
      description: "Saved",
      link: { to: "/northfield", label: "Open" },
    });
    const message = await failureOf(() => expect(linked).toSendToast({ type: "success", description: "Saved" }));
    expect(message).toMatch(/\+ +"link": \{/);
  });

  it("fails when no toast is sent", async () => {
    expect(
      await failureOf(() => expect(redirectTo("/northfield")).toSendToast({ type: "success", description: "Saved" })),
    ).toMatch(/^Expected the response to send Object \{[\s\S]*"description": "Saved"[\s\S]*\}, but it sent none$/);
    expect(await failureOf(() => expect(json({})).toSendToast())).toBe(
      "Expected the response to send a toast, but it sent none",
    );
  });

  it("negated, fails when a toast is sent and passes when none is", async () => {
    expect(await failureOf(() => expect(saved()).resolves.not.toSendToast())).toMatch(
      /^Expected the response not to send a toast, but it sent Object \{[\s\S]*"description": "Saved"/,
    );
    await expect(redirectTo("/northfield")).not.toSendToast();
  });
});
