import type { ShouldRevalidateFunctionArgs } from "@remix-run/react";
import { describe, expect, it } from "vitest";
import * as root from "~/root";

/**
 * After a post the API could not take (the action answered 503 or 429: nothing saved, the data out of reach
 * just now), a page that read its data again would fail as the post did, and its error screen would
 * take the place of the form and of what was typed in it. So no route of a page reads again then.
 */
const routeModules = import.meta.glob<Record<string, unknown>>(["./*.tsx", "!./*.test.tsx"], { eager: true });
const pages = Object.entries({ ...routeModules, "~/root": root }).filter(
  ([, module]) => typeof module.loader === "function" && typeof module.default === "function",
);

const PAGE = new URL("http://console.test/northfield/agent/admissions/controls/ai-personality");
const afterPost = (actionStatus: number): ShouldRevalidateFunctionArgs => ({
  currentUrl: PAGE,
  currentParams: {},
  nextUrl: PAGE,
  nextParams: {},
  formMethod: "POST",
  formAction: PAGE.pathname,
  actionStatus,
  defaultShouldRevalidate: true,
});

describe("every page's routes", () => {
  it("are found", () => expect(pages.length).toBeGreaterThan(40));

  it.each(pages.map(([file, module]) => [file, module] as const))(
    "%s keeps its data after a post the API could not take, and reads it again after any other",
    (_file, module) => {
      const shouldRevalidate = module.shouldRevalidate as ((args: ShouldRevalidateFunctionArgs) => boolean) | undefined;
      expect(shouldRevalidate).toBeTypeOf("function");
      expect(shouldRevalidate?.(afterPost(503))).toBe(false);
      // A limit's refusal (one that would not renew the sign-in, or a form's own): nothing was saved either.
      expect(shouldRevalidate?.(afterPost(429))).toBe(false);
      expect(shouldRevalidate?.(afterPost(200))).toBe(true);
      expect(shouldRevalidate?.(afterPost(400))).toBe(true);
    },
  );
});
