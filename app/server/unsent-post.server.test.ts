import { describe, expect, it } from "vitest";
import { formRequest, testConsoleConfig } from "../../tests/support/console-context";
import { keepUnsentPost } from "./unsent-post.server";

const context = { config: testConsoleConfig(), secure: true };

describe("a kept post's cookie", () => {
  it("fits in a browser's cookie at the largest form it keeps, and cannot be read", async () => {
    let largestKept = "";
    let largestTyped = 0;
    for (let length = 500; length <= 4_000; length += 100) {
      // Typing that hardly compresses, the worst case for the cookie's size.
      const typed = Array.from({ length }, (_, i) => ((i * 2654435761) >>> 7).toString(36).slice(-1)).join("");
      const cookie = await keepUnsentPost(
        formRequest("/northfield/manage", { notes: typed }),
        context,
        "a@example.com",
      );
      if (cookie) [largestKept, largestTyped] = [cookie, length];
    }
    expect(largestTyped).toBeGreaterThanOrEqual(1_500);
    expect(largestKept.length).toBeLessThanOrEqual(4_096);
    expect(largestKept).toMatch(/^__unsent=.*; HttpOnly; .*Secure/);
    const value = decodeURIComponent(largestKept.split(";")[0].slice("__unsent=".length));
    expect(Buffer.from(value, "base64").toString("utf8")).not.toContain("northfield");
  });
});
