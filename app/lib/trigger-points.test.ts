import { describe, expect, it } from "vitest";
import type { ClientApp } from "@contract";
import { triggerPointFor } from "./trigger-points";

const app = {
  id: 1,
  client_name: "Northfield University",
  url_code: "northfield",
  trigger_points: ["admissions", "housing"],
  agents: [
    {
      id: 1,
      name: "Admissions Assistant",
      site_code: "admissions",
      agent_type: "enrollment",
      logo: null,
      status: "active",
    },
  ],
} as unknown as ClientApp;
const at = (path: string, query = "") => triggerPointFor(app, path, new URLSearchParams(query));

describe("the trigger point a controls screen edits", () => {
  it("is the agent's site code under an agent, with no selector", () => {
    expect(at("/northfield/agent/admissions/controls/ai-personality", "trigger_point=housing")).toEqual({
      triggerPoint: "admissions",
      selectable: false,
      options: [],
    });
  });

  it("comes from the address at client level, 'Default' first, unknown values falling back to the default", () => {
    expect(at("/northfield/controls/ai-personality", "trigger_point=housing")).toMatchObject({
      triggerPoint: "housing",
      selectable: true,
    });
    expect(at("/northfield/controls/ai-personality").options).toEqual([
      { value: "", label: "Default" },
      { value: "admissions", label: "admissions" },
      { value: "housing", label: "housing" },
    ]);
    expect(at("/northfield/controls/ai-personality", "trigger_point=elsewhere").triggerPoint).toBe("");
  });

  it("offers no selector to a client without trigger points", () => {
    expect(
      triggerPointFor({ ...app, trigger_points: [] }, "/northfield/controls", new URLSearchParams()).selectable,
    ).toBe(false);
  });
});
