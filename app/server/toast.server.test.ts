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

describe("a toast's link", () => {
  const roundTrip = async (link: { to: string; label: string }) => {
    const cookie = (await toastCookieHeader({ type: "success", description: "Saved", link })).split(";")[0];
    return (await takeToast(new Request("http://console.test/", { headers: { Cookie: cookie } }))).toast;
  };

  it("carries a page of this console to the next page", async () => {
    expect(
      (await roundTrip({ to: "/northfield/controls/test-questions", label: "Open Test Questions" }))?.link,
    ).toEqual({ to: "/northfield/controls/test-questions", label: "Open Test Questions" });
  });

  it("never leads to another host", async () => {
    for (const to of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
      await expect(roundTrip({ to, label: "Go" }), to).rejects.toThrow();
    }
  });
});
