import type { ShouldRevalidateFunctionArgs } from "@remix-run/react";
import { describe, expect, it } from "vitest";
import { addressWithout, keepDataWhileSame, keepLayoutData, leadingSegments } from "./revalidation";

const BASE = "https://console.example";

/** What Remix hands a route on a move from one address to another (true: what it would do by default). */
function move(
  from: string,
  to: string,
  extra: Partial<ShouldRevalidateFunctionArgs> = {},
): ShouldRevalidateFunctionArgs {
  return {
    currentUrl: new URL(from, BASE),
    nextUrl: new URL(to, BASE),
    currentParams: {},
    nextParams: {},
    defaultShouldRevalidate: true,
    ...extra,
  };
}

describe("keepDataWhileSame", () => {
  const layout = keepDataWhileSame(leadingSegments(3));

  it("keeps a layout's data when a GET navigation stays within its part of the address", () => {
    expect(layout(move("/northfield/agent/admissions/websites", "/northfield/agent/admissions/websites?page=2"))).toBe(
      false,
    );
    expect(layout(move("/northfield/agent/admissions/files?search=a", "/northfield/agent/admissions/controls"))).toBe(
      false,
    );
    expect(layout(move("/a/agent/b", "/a/agent/b/x", { formMethod: "GET" }))).toBe(false);
  });

  it("loads as Remix decides when the part it reads changes", () => {
    expect(layout(move("/northfield/agent/admissions/websites", "/northfield/agent/outreach/websites"))).toBe(true);
    expect(layout(move("/northfield/agent/admissions", "/harbor/agent/admissions"))).toBe(true);
    expect(
      layout(move("/northfield/agent/admissions", "/harbor/agent/admissions", { defaultShouldRevalidate: false })),
    ).toBe(false);
  });

  it("loads after a post, whatever the address", () => {
    for (const formMethod of ["POST", "PUT", "DELETE"] as const)
      expect(layout(move("/a/agent/b/websites", "/a/agent/b/websites?page=2", { formMethod }))).toBe(true);
  });

  it("loads on a refresh of the same address (polling, a link to the page shown)", () => {
    expect(layout(move("/a/agent/b/websites?page=2", "/a/agent/b/websites?page=2"))).toBe(true);
  });
});

describe("keepLayoutData", () => {
  const root = keepLayoutData(1);

  it("keeps the shell's data on polling's refresh too, but not after a post or in another client", () => {
    expect(root(move("/northfield/websites?page=2", "/northfield/websites?page=2"))).toBe(false);
    expect(root(move("/northfield/websites", "/northfield/websites", { formMethod: "POST" }))).toBe(true);
    expect(root(move("/northfield/websites", "/harbor/websites"))).toBe(true);
    expect(root(move("/northfield/websites", "/login"))).toBe(true);
  });
});

describe("the keys", () => {
  it("reads the leading segments of the path", () => {
    expect(leadingSegments(1)(new URL("/northfield/agent/admissions?x=1", BASE))).toBe("/northfield");
    expect(leadingSegments(3)(new URL("/northfield/agent/admissions/controls", BASE))).toBe(
      "/northfield/agent/admissions",
    );
    expect(leadingSegments(1)(new URL("/", BASE))).toBe("/");
  });

  it("drops the named parameters, ignores their order and reads the path as asked", () => {
    const key = addressWithout(["font", "theme"], (pathname) => pathname.replace(/\/chunks$/, ""));
    expect(key(new URL("/w/1/chunks?b=2&a=1&font=16", BASE))).toBe(key(new URL("/w/1?a=1&theme=light&b=2", BASE)));
    expect(key(new URL("/w/1?a=1", BASE))).not.toBe(key(new URL("/w/1?a=2", BASE)));
    expect(key(new URL("/w/1?a=1", BASE))).not.toBe(key(new URL("/w/2?a=1", BASE)));
  });
});
