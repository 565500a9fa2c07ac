import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { publicFilePaths } from "../../server";

/**
 * server.ts hands a request to the static files of public/ only when its path names one of them,
 * known from start: pages reach the console without a file lookup on the way.
 */
describe("the files of public/ known at start", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("names every file under its request path, nested ones too, without the compressed copies and skipped folders", () => {
    dir = mkdtempSync(path.join(tmpdir(), "console-public-"));
    const files = [
      "favicon.svg",
      "widget.js",
      "widget.js.br",
      "widget.js.gz",
      "integrations/canvas.svg",
      "integrations/build/kept.svg",
      "build/entry.client.js",
      "demo-site/index.html",
    ];
    for (const file of files) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), "x");
    }
    expect([...publicFilePaths(dir, ["build", "demo-site"])].sort()).toEqual([
      "/favicon.svg",
      "/integrations/build/kept.svg",
      "/integrations/canvas.svg",
      "/widget.js",
    ]);
  });
});
