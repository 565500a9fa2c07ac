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

describe("a toast's title", () => {
  it("is cut with an ellipsis when it names more than a title holds, the toast kept", async () => {
    const title = `Imported 6 files: ${Array.from({ length: 6 }, (_, n) => `Imported Lakeside College ${n + 1}`).join("; ")}`;
    expect(title.length).toBeGreaterThan(120);
    const cookie = (await toastCookieHeader({ type: "error", title, description: "The last file failed" })).split(
      ";",
    )[0];
    const { toast } = await takeToast(new Request("http://console.test/", { headers: { Cookie: cookie } }));
    expect(toast?.title).toBe(`${title.slice(0, 119)}…`);
    expect(toast?.description).toBe("The last file failed");
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

  it("carries a client's controls screen for the longest trigger point, each of its characters percent-encoded", async () => {
    // The longest url_code, and 100 characters of a script written in three bytes each: nine once encoded.
    const to = `/${"n".repeat(63)}/controls/test-questions?${new URLSearchParams({ trigger_point: "界".repeat(100) })}`;
    expect(to.length).toBeGreaterThan(1000);
    expect((await roundTrip({ to, label: "Open Test Questions" }))?.link?.to).toBe(to);
  });

  it("is left off, and the message kept, when both together would be a cookie too large for a browser to keep", async () => {
    const description = "界".repeat(500);
    const to = `/northfield/controls/test-questions?trigger_point=${"a".repeat(1900)}`;
    const header = await toastCookieHeader({
      type: "success",
      description,
      link: { to, label: "Open Test Questions" },
    });
    expect(header.length).toBeLessThanOrEqual(4096);
    const { toast } = await takeToast(
      new Request("http://console.test/", { headers: { Cookie: header.split(";")[0] } }),
    );
    expect(toast?.description).toBe(description);
    expect(toast?.link).toBeUndefined();
  });

  it("never leads to another host", async () => {
    for (const to of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
      await expect(roundTrip({ to, label: "Go" }), to).rejects.toThrow();
    }
  });
});
