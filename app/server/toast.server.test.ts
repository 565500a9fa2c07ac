import { describe, expect, it } from "vitest";
import { takeToast, toastCookieHeader } from "./toast.server";

describe("the toast cookie", () => {
  it("cuts a long description before an emoji, never through it", async () => {
    const description = `${"a".repeat(499)}😀 and more`;
    const cookie = (await toastCookieHeader({ type: "info", description })).split(";")[0];
    const { toast } = await takeToast(new Request("http://console.test/", { headers: { Cookie: cookie } }));
    expect(toast?.description).toBe("a".repeat(499));
    expect(toast?.description).not.toContain("\uFFFD");
  });
});
