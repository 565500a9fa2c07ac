import { describe, expect, it } from "vitest";
import { AgentInput, AppInput } from "./apps";
import { isWebLink } from "./common";

describe("web link fields", () => {
  it.each([
    ["https://www.northfield.edu/apply", true],
    ["http://127.0.0.1:3000/demo-site/", true],
    ["/storage/public/logos/northfield.png", true],
    ["www.northfield.edu/apply", true],
    ["javascript:alert(1)", false],
    ["JaVaScRiPt:alert(1)", false],
    ["data:text/html,<script>alert(1)</script>", false],
    ["vbscript:msgbox", false],
    ["//evil.example/x", false],
    ["/\\evil.example", false],
    ["java\tscript:alert(1)", false],
    ["https://", false],
    ["not a link", false],
  ])("%j is a web link: %s", (value, expected) => {
    expect(isWebLink(value)).toBe(expected);
  });

  it("refuse script links in a client's logo_url, project_url and primary_website, and an agent's logo and url", () => {
    const client = { client_name: "Evil", url_code: "evil" };
    for (const field of ["logo_url", "project_url", "primary_website"]) {
      const result = AppInput.safeParse({ ...client, [field]: "javascript:alert(document.cookie)" });
      expect(result.success, field).toBe(false);
      expect(result.error?.issues[0]).toMatchObject({
        path: [field],
        message: "Use a web address starting with http:// or https://",
      });
    }
    const agent = { app_id: 1, name: "Admissions", site_code: "admissions" };
    for (const field of ["logo", "url"]) {
      expect(AgentInput.safeParse({ ...agent, [field]: "javascript:alert(1)" }).success, field).toBe(false);
    }
    expect(
      AppInput.safeParse({
        ...client,
        logo_url: "/storage/public/logos/evil.png",
        project_url: "",
        primary_website: "evil.example",
      }).success,
    ).toBe(true);
    expect(AgentInput.safeParse({ ...agent, logo: null, url: "https://evil.example/chat" }).success).toBe(true);
  });
});
