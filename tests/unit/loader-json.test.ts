import { json, redirect, type AppLoadContext } from "@remix-run/node";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { loaderJson } from "../support/console-context";

// The loaders here read nothing of the load context.
const argsFor = (path: string) => ({
  request: new Request(`http://localhost${path}`),
  context: {} as AppLoadContext,
  params: {},
});

describe("loaderJson", () => {
  it("answers a loader's data as the page receives it", async () => {
    const data = await loaderJson(() => json({ when: new Date(0), count: 2 }), argsFor("/northfield"));
    expect(data).toEqual({ when: "1970-01-01T00:00:00.000Z", count: 2 });
  });

  it("fails on a redirect, returned or thrown, saying which page went where", async () => {
    for (const loader of [() => redirect("/login"), () => Promise.reject(redirect("/login"))]) {
      const failure = await loaderJson(loader, argsFor("/northfield?page=2")).catch((error: Error) => error);
      expect(stripVTControlCharacters(String(failure))).toMatch(
        /loading \/northfield\?page=2 \(sent to \/login\): expected 302 to be 200/,
      );
    }
  });
});
