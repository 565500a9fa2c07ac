import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { remixModeOf } from "../../server";

describe("production by default, development when asked", () => {
  it("runs Remix in production mode unless NODE_ENV is development", () => {
    expect(remixModeOf({})).toBe("production");
    expect(remixModeOf({ NODE_ENV: "production" })).toBe("production");
    expect(remixModeOf({ NODE_ENV: "test" })).toBe("production");
    expect(remixModeOf({ NODE_ENV: "development" })).toBe("development");
  });

  it("has npm start run the production build in production mode, and npm run dev in development mode", () => {
    const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    // The server as built by `npm run build` (scripts/build-server.mjs), not compiled on every start.
    expect(scripts.start).toMatch(/NODE_ENV=production node build\/server\/server\.mjs/);
    expect(scripts.build).toContain("node scripts/build-server.mjs");
    expect(scripts.dev).toMatch(/NODE_ENV=development tsx watch server\.ts/);
  });
});
