import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { embedScript } from "./routes";

/** The trigger point a browser reads from the script tag, as the widget does (`dataset.triggerPoint`). */
function triggerPointRead(script: string) {
  const { document } = parseHTML(`<!doctype html><html><body>${script}</body></html>`);
  const tags = document.querySelectorAll("script");
  expect(tags.length).toBe(1);
  return tags[0].getAttribute("data-trigger-point");
}

describe("the embed script's trigger point", () => {
  it.each(["admissions", "Campus Visit", "Admisión", "学生服务", 'Q&A "Open Day" <2026>', "it's &amp; more"])(
    "carries %s as written",
    (name) => {
      const script = embedScript("https://console.example", "sk_0123456789abcdef", "stage", name);
      expect(triggerPointRead(script)).toBe(name);
      // Nothing of the name ends the attribute or the tag early: one attribute of that name, one tag.
      expect(script.match(/data-trigger-point=/g)).toHaveLength(1);
    },
  );

  it("is left out for the client default", () => {
    expect(embedScript("https://console.example", "sk_0123456789abcdef", "stage", "")).not.toContain(
      "data-trigger-point",
    );
  });
});
