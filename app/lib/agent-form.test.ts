import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { agentTypeNotOffered, agentTypesFor } from "@contract/values/apps";
import { AgentForm } from "./agent-form.schema";
import {
  agentFormDefaults,
  agentGroupTitle,
  agentTypeLabel,
  agentTypeOf,
  groupAgents,
  isShowableLogoUrl,
  modeEnvLabel,
  newAgentDefaults,
  newAgentType,
  stripSiteCode,
} from "./agent-form";

describe("site code", () => {
  it("keeps letters and digits only", () => {
    expect(stripSiteCode("north-field_2025!")).toBe("northfield2025");
    expect(stripSiteCode("  Grad School. ")).toBe("GradSchool");
    // An accented letter keeps its base letter; a letter with none has no ASCII to keep.
    expect(stripSiteCode("école")).toBe("ecole");
    expect(stripSiteCode("admisión-2025")).toBe("admision2025");
    expect(stripSiteCode("Ｇｒａｄ２")).toBe("Grad2");
    expect(stripSiteCode("e\u0301cole")).toBe("ecole");
    expect(stripSiteCode("入学2025")).toBe("2025");
    expect(stripSiteCode("---")).toBe("");
    expect(stripSiteCode("admissions")).toBe("admissions");
  });

  it("is stripped by the form schema on the server too", () => {
    const form = new FormData();
    form.set("name", " Grad Assistant ");
    form.set("site_code", "grad-school_1");
    const submission = parseWithZod(form, { schema: AgentForm });
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value).toMatchObject({
      name: "Grad Assistant",
      site_code: "gradschool1",
      agent_type: "enrollment",
      status: "active",
      mode_env: "staging",
      url: "",
      logo_url: "",
    });
  });

  it("refuses statuses and types the spec does not list", () => {
    const form = new FormData();
    form.set("status", "archived");
    form.set("agent_type", "sales");
    const submission = parseWithZod(form, { schema: AgentForm });
    expect(submission.status).toBe("error");
    expect(Object.keys(submission.reply().error ?? {}).sort()).toEqual(["agent_type", "status"]);
  });
});

describe("agent type", () => {
  it("labels each type; a missing or unknown type is enrollment", () => {
    expect(agentTypeLabel("enrollment")).toBe("Enrollment");
    expect(agentTypeLabel("engagement")).toBe("Engagement");
    expect(agentTypeLabel("ecommerce")).toBe("Ecommerce");
    expect(agentTypeLabel(undefined)).toBe("Enrollment");
    expect(agentTypeLabel("")).toBe("Enrollment");
    expect(agentTypeOf("sales")).toBe("enrollment");
  });

  it("starts a new agent with the requested type, else the client's first", () => {
    expect(newAgentType("higher_ed", "engagement")).toBe("engagement");
    expect(newAgentType("higher_ed", null)).toBe("enrollment");
    expect(newAgentType("higher_ed", "bogus")).toBe("enrollment");
    expect(newAgentType("ecommerce", null)).toBe("ecommerce");
    expect(newAgentType("", undefined)).toBe("enrollment");
    // A type the client does not work with is not offered (spec: higher_ed clients have enrollment and engagement agents).
    expect(newAgentType("higher_ed", "ecommerce")).toBe("enrollment");
    expect(newAgentType("ecommerce", "engagement")).toBe("ecommerce");
  });

  it("labels mode_env as the spec does", () => {
    expect(modeEnvLabel("staging")).toBe("Sandbox");
    expect(modeEnvLabel("production")).toBe("Production");
    expect(modeEnvLabel("pre_prod")).toBe("Pre Prod");
  });
});

describe("grouping agents by client type", () => {
  const agents = [
    { id: 1, name: "Admissions", agent_type: "enrollment" },
    { id: 2, name: "Success", agent_type: "engagement" },
    { id: 3, name: "Legacy", agent_type: null },
    { id: 4, name: "Grad", agent_type: "enrollment" },
  ];

  it("gives higher_ed clients Enrollment and Engagement groups, in that order, each with a create card", () => {
    const groups = groupAgents("higher_ed", agents);
    expect(groups.map((g) => [g.title, g.agents.map((a) => a.id), g.offersCreate])).toEqual([
      ["Enrollment Agents", [1, 3, 4], true],
      ["Engagement Agents", [2], true],
    ]);
  });

  it("gives ecommerce clients only Ecommerce Agents", () => {
    const groups = groupAgents("ecommerce", [{ id: 9, agent_type: "ecommerce" }]);
    expect(groups.map((g) => [g.title, g.type, g.agents.map((a) => a.id)])).toEqual([
      ["Ecommerce Agents", "ecommerce", [9]],
    ]);
    expect(groupAgents("ecommerce", []).map((g) => g.title)).toEqual(["Ecommerce Agents"]);
  });

  it("treats other and empty client types like higher_ed", () => {
    expect(groupAgents("", []).map((g) => g.title)).toEqual(["Enrollment Agents", "Engagement Agents"]);
    expect(groupAgents("government", []).map((g) => g.type)).toEqual(["enrollment", "engagement"]);
    expect(agentTypesFor("other")).toEqual(["enrollment", "engagement"]);
    expect(agentTypeNotOffered("higher_ed")).toBe(
      "A higher education client's agents are Enrollment or Engagement agents",
    );
    expect(agentTypeNotOffered("ecommerce")).toBe("An ecommerce client's agents are Ecommerce agents");
  });

  it("shows an agent of a type the client does not work with in a group of its own, without a create card", () => {
    const groups = groupAgents("ecommerce", [
      { id: 5, agent_type: "ecommerce" },
      { id: 6, agent_type: "engagement" },
    ]);
    expect(groups.map((g) => [g.title, g.agents.map((a) => a.id), g.offersCreate])).toEqual([
      ["Ecommerce Agents", [5], true],
      ["Engagement Agents", [6], false],
    ]);
    expect(agentGroupTitle("enrollment")).toBe("Enrollment Agents");
  });
});

describe("form defaults", () => {
  it("start a new agent active in the sandbox", () => {
    expect(newAgentDefaults("engagement")).toEqual({
      name: "",
      agent_type: "engagement",
      site_code: "",
      logo_url: "",
      url: "",
      status: "active",
      mode_env: "staging",
    });
  });

  it("carry an existing agent, a missing logo as empty text", () => {
    expect(
      agentFormDefaults({
        id: 7,
        name: "Grad",
        agent_type: "engagement",
        site_code: "grad",
        logo: null,
        url: "https://x.example",
        status: "inactive",
        mode_env: "production",
      }),
    ).toEqual({
      id: 7,
      name: "Grad",
      agent_type: "engagement",
      site_code: "grad",
      logo_url: "",
      url: "https://x.example",
      status: "inactive",
      mode_env: "production",
    });
  });

  it("show only logos on this host or over http(s)", () => {
    expect(isShowableLogoUrl("/storage/public/agents/1/a.png")).toBe(true);
    expect(isShowableLogoUrl("https://cdn.example/logo.svg")).toBe(true);
    expect(isShowableLogoUrl("//evil.example/x.png")).toBe(false);
    expect(isShowableLogoUrl("javascript:alert(1)")).toBe(false);
    expect(isShowableLogoUrl("")).toBe(false);
  });
});
