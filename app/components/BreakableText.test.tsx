import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EmailAddress, WebAddress } from "./BreakableText";

describe("long words in narrow columns may break", () => {
  it.each([
    ["admin@example.com", "admin<wbr/>@example.com"],
    ["no address", "no address"],
    ["@handle", "@handle"],
  ])("before an email address's @: %s", (email, markup) => {
    expect(renderToStaticMarkup(<EmailAddress email={email} />)).toBe(markup);
  });

  it.each([
    ["http://127.0.0.1:3311/demo-site/tuition.html", "http://127.0.0.1:3311/<wbr/>demo-site/<wbr/>tuition.html"],
    ["https://example.edu/programs/", "https://example.edu/<wbr/>programs/"],
    ["handbook.pdf", "handbook.pdf"],
    ["", ""],
  ])("after a web address's slashes, never inside its scheme's //: %s", (address, markup) => {
    expect(renderToStaticMarkup(<WebAddress address={address} />)).toBe(markup);
  });
});
