import { describe, expect, it } from "vitest";
import { failedJobLine } from "./shown-output";

describe("failedJobLine", () => {
  it("drops a password with an @ in it whole, as a browser reads the address", () => {
    expect(failedJobLine(new Error("https://bot:p@ss@host.example.org/sitemap.xml: HTTP 401"))).toBe(
      "https://host.example.org/sitemap.xml: HTTP 401",
    );
  });

  it("keeps an address whose query or fragment holds an @ as it is", () => {
    const said = "https://host.example.org?to=editor@example.org: HTTP 404; https://host.example.org#a@b: HTTP 500";
    expect(failedJobLine(new Error(said))).toBe(said);
  });
});
