import { describe, expect, it } from "vitest";
import type { ClientApp } from "@contract";
import { backofficeUrl } from "./backoffice";
import { breadcrumbsFor } from "./breadcrumbs";
import { isUnknownClientPath, selectedAgentFor, selectedClientFor } from "./clients";
import { HUBS, hubBasePath, hubTypeOf } from "./hubs";
import { navigationFor, type NavItem } from "./navigation";

const app: ClientApp = {
  id: 1,
  client_name: "Northfield University",
  primary_website: "https://www.northfield.edu",
  logo_url: null,
  country: "US",
  market: "us_northfield",
  project_url: "",
  notes: "",
  url_code: "northfield",
  copy_market: "us_eduenroll",
  client_type: "higher_ed",
  onboard_existing_client: true,
  trigger_points: ["admissions"],
  mode_env: "staging",
  insync_prod_app_id: null,
  status: "active",
  agents: [
    {
      id: 1,
      name: "Admissions Assistant",
      site_code: "admissions",
      agent_type: "enrollment",
      logo: null,
      status: "active",
    },
    { id: 2, name: "Nameless Code", site_code: "", agent_type: "engagement", logo: null, status: "active" },
  ],
};
const flatten = (items: NavItem[]): string[] =>
  items.flatMap((i) => [`${i.label} ${i.to ?? `ext:${i.external?.page}`}`, ...flatten(i.children ?? [])]);

describe("client selection", () => {
  it("matches the first path segment against url_code; global paths select nothing", () => {
    expect(selectedClientFor("/northfield/manage", [app])?.id).toBe(1);
    expect(selectedClientFor("/clients", [app])).toBeNull();
    // The back-office pages of a client are the client's: its navigation and its name, not the global ones.
    expect(selectedClientFor("/backoffice/northfield/dashboard", [app])?.id).toBe(1);
    expect(selectedClientFor("/backoffice/harbor/dashboard", [app])).toBeNull();
    expect(navigationFor("/backoffice/northfield/user_profiles", app).variant).toBe("client");
    expect(selectedClientFor("/unknown/x", [app])).toBeNull();
    expect(selectedClientFor("/", [app])).toBeNull();
  });

  it("flags client-scoped paths of clients not (yet) in the list, for the loading skeleton", () => {
    expect(isUnknownClientPath("/newclient/manage", [app])).toBe(true);
    expect(isUnknownClientPath("/northfield/manage", [app])).toBe(false);
    expect(isUnknownClientPath("/users", [app])).toBe(false);
    expect(isUnknownClientPath("/", [app])).toBe(false);
  });

  it("finds the agent by site code, or by name when it has none", () => {
    expect(selectedAgentFor("/northfield/agent/admissions/controls", app)?.id).toBe(1);
    expect(selectedAgentFor("/northfield/agent/Nameless%20Code", app)?.id).toBe(2);
    expect(selectedAgentFor("/northfield/manage", app)).toBeNull();
  });
});

describe("navigation variants", () => {
  it("global: Clients and Users", () => {
    expect(navigationFor("/users", null)).toEqual({
      variant: "global",
      items: [
        { label: "Clients", to: "/clients" },
        { label: "Users", to: "/users" },
      ],
    });
    expect(navigationFor("/", null, { canManageUsers: false }).items).toEqual([{ label: "Clients", to: "/clients" }]);
  });

  it("client-level: Agents with one child per agent, Profile, Access Control, Conversations, History", () => {
    const nav = navigationFor("/northfield", app);
    expect(nav.variant).toBe("client");
    expect(flatten(nav.items)).toEqual([
      "Agents /northfield",
      "Admissions Assistant /northfield/agent/admissions",
      "Nameless Code /northfield/agent/Nameless%20Code",
      "Profile /northfield/manage",
      "Access Control /northfield/access-control",
      "Conversations /northfield/conversations",
      "History /northfield/history",
    ]);
  });

  it("agent-level: every item and path of the spec, redirects for the back-office pages", () => {
    const nav = navigationFor("/northfield/agent/admissions/appearance", app);
    expect(nav.variant).toBe("agent");
    const p = "/northfield/agent/admissions";
    expect(flatten(nav.items)).toEqual([
      `Home ${p}`,
      `AI Knowledge Store ${p}/knowledge-store`,
      `Websites ${p}/knowledge-store/websites`,
      `Files ${p}/knowledge-store/files`,
      `Smart Probing ${p}/knowledge-store/smart-probing`,
      `Program Data Model ${p}/knowledge-store/program-data-model`,
      `User Profiling ${p}/user-profiling`,
      `Manage User Profile ${p}/user-profiling/user-profile-data-model`,
      "User Profile Store ext:/user_profiles",
      `Controls ${p}/controls`,
      `AI Personality ${p}/controls/ai-personality`,
      `Sensitive Topics ${p}/controls/sensitive-topics`,
      `No-GO Topics ${p}/controls/no-go-topics`,
      `Integrations ${p}/integrations`,
      `Appearance ${p}/appearance`,
      `AI Testing ${p}/bot-testing`,
      `Conversations ${p}/conversations`,
      "Business Insights ext:/dashboard",
      `Personalization ${p}/personalization`,
      `Manage User Profile ${p}/personalization/user-profile-data-model`,
      `Manage Program Profile ${p}/personalization/program-profile-data-model`,
      `Admin Downloads ${p}/admin-downloads`,
    ]);
    expect(nav.items.find((i) => i.label === "Business Insights")?.external?.triggerPoint).toBe("admissions");
  });
});

describe("breadcrumbs", () => {
  it("start with Home outside a client, title-case the segments, and leave the last unlinked", () => {
    expect(breadcrumbsFor("/clients/new-client", null)).toEqual([
      { label: "Home", to: "/" },
      { label: "Clients", to: "/clients" },
      { label: "New Client" },
    ]);
  });

  it("name a back-office page by its heading under the client, not by its address", () => {
    expect(breadcrumbsFor("/backoffice/northfield/dashboard", app)).toEqual([
      { label: "Northfield University", to: "/northfield" },
      { label: "Business Insights" },
    ]);
    expect(breadcrumbsFor("/backoffice/northfield/user_profiles", app).map((crumb) => crumb.label)).toEqual([
      "Northfield University",
      "User Profile Store",
    ]);
  });

  it("read an address naming one of Object's own properties as words, not as its code", () => {
    expect(breadcrumbsFor("/backoffice/northfield/constructor", app).map((crumb) => crumb.label)).toEqual([
      "Northfield University",
      "Constructor",
    ]);
    expect(breadcrumbsFor("/northfield/constructor", app).map((crumb) => crumb.label)).toEqual([
      "Northfield University",
      "Constructor",
    ]);
  });

  it("leave out the control characters an address can spell, so no crumb writes them into the page", () => {
    expect(breadcrumbsFor("/northfield/a%00b%07c", app).map((crumb) => crumb.label)).toEqual([
      "Northfield University",
      "Abc",
    ]);
    expect(breadcrumbsFor("/agent/%00evil%E2%80%AEname", null).map((crumb) => crumb.label)).toEqual([
      "Home",
      "Agent",
      "Evilname",
    ]);
    expect(breadcrumbsFor("/backoffice/northfield/x%1By", app).map((crumb) => crumb.label)).toEqual([
      "Northfield University",
      "Xy",
    ]);
  });

  it("start with the client name inside a client; build-agent reads Build Agent", () => {
    expect(breadcrumbsFor("/northfield/build-agent", app)).toEqual([
      { label: "Northfield University", to: "/northfield" },
      { label: "Build Agent" },
    ]);
  });

  it("lead the bare agent segment back to the agent list", () => {
    expect(breadcrumbsFor("/northfield/agent/admissions/knowledge-store/websites", app)).toEqual([
      { label: "Northfield University", to: "/northfield" },
      { label: "Agent", to: "/northfield" },
      { label: "Admissions", to: "/northfield/agent/admissions" },
      { label: "Knowledge Store", to: "/northfield/agent/admissions/knowledge-store" },
      { label: "Websites" },
    ]);
  });

  it("call a conversation's id Conversation, under the list it belongs to", () => {
    expect(
      breadcrumbsFor("/northfield/agent/admissions/conversations/0b7c5a52-3f1e-4f4c-9d7e-2a6f8e1b9c10", app),
    ).toEqual([
      { label: "Northfield University", to: "/northfield" },
      { label: "Agent", to: "/northfield" },
      { label: "Admissions", to: "/northfield/agent/admissions" },
      { label: "Conversations", to: "/northfield/agent/admissions/conversations" },
      { label: "Conversation" },
    ]);
    expect(
      breadcrumbsFor("/northfield/conversations/0b7c5a52-3f1e-4f4c-9d7e-2a6f8e1b9c10", app).map((crumb) => crumb.label),
    ).toEqual(["Northfield University", "Conversations", "Conversation"]);
    // A wrong id (not found) is not read back as words.
    expect(breadcrumbsFor("/northfield/conversations/not-a-uuid", app).at(-1)).toEqual({ label: "Conversation" });
  });

  it("cut a segment too long to be a crumb", () => {
    const label = breadcrumbsFor(`/northfield/${"a".repeat(3000)}`, app).at(-1)!.label;
    expect(label).toHaveLength(60);
    expect(label.endsWith("…")).toBe(true);
  });

  it("link only to addresses that are pages, and spell AI in capitals", () => {
    expect(breadcrumbsFor("/northfield/ai-finetuning/ai-personality", app)).toEqual([
      { label: "Northfield University", to: "/northfield" },
      { label: "AI Finetuning" },
      { label: "AI Personality" },
    ]);
    expect(breadcrumbsFor("/northfield/ai-training/websites/3", app)).toEqual([
      { label: "Northfield University", to: "/northfield" },
      { label: "AI Training" },
      { label: "Websites", to: "/northfield/ai-training/websites" },
      { label: "3" },
    ]);
    expect(breadcrumbsFor("/backoffice/northfield/dashboard", null)).toEqual([
      { label: "Home", to: "/" },
      { label: "Backoffice" },
      { label: "Northfield" },
      { label: "Dashboard" },
    ]);
    expect(breadcrumbsFor("/agent/admissions", null)).toEqual([
      { label: "Home", to: "/" },
      { label: "Agent" },
      { label: "Admissions" },
    ]);
    expect(breadcrumbsFor("/northfield/agent/admissions/knowledge-store/files/7/chunks", app).map((c) => c.to)).toEqual(
      [
        "/northfield",
        "/northfield",
        "/northfield/agent/admissions",
        "/northfield/agent/admissions/knowledge-store",
        "/northfield/agent/admissions/knowledge-store/files",
        undefined,
        undefined,
      ],
    );
    expect(breadcrumbsFor("/northfield/agent/admissions/controls/ai-personality", app).at(-1)).toEqual({
      label: "AI Personality",
    });
  });

  it("lead a test run's Runs crumb to the runs list of its Test Questions screen, which has no page of its own", () => {
    expect(breadcrumbsFor("/northfield/agent/admissions/controls/test-questions/runs/12", app).slice(-3)).toEqual([
      { label: "Test Questions", to: "/northfield/agent/admissions/controls/test-questions" },
      { label: "Runs", to: "/northfield/agent/admissions/controls/test-questions#runs" },
      { label: "12" },
    ]);
    expect(breadcrumbsFor("/northfield/controls/test-questions/runs/12", app).at(-2)).toEqual({
      label: "Runs",
      to: "/northfield/controls/test-questions#runs",
    });
  });

  it("are hidden (empty) with a single crumb", () => {
    expect(breadcrumbsFor("/", null)).toEqual([]);
    expect(breadcrumbsFor("/northfield", app)).toEqual([]);
    expect(breadcrumbsFor("/northfield/", app)).toEqual([]);
  });
});

describe("back-office redirect URLs", () => {
  it("default to this server, carrying url_code, country, market and the trigger point", () => {
    expect(
      backofficeUrl({
        template: undefined,
        origin: "http://127.0.0.1:3000",
        app,
        page: "/dashboard",
        triggerPoint: "admissions",
      }),
    ).toBe(
      "http://127.0.0.1:3000/backoffice/northfield/dashboard?country=us&market=us_northfield&triggerPoint=admissions",
    );
  });

  it("fill a configured host template; no trigger point at client level", () => {
    expect(
      backofficeUrl({
        template: "https://{url_code}-{country}.insights.example.com/{market}",
        origin: "http://x",
        app,
        page: "/user_profiles",
      }),
    ).toBe("https://northfield-us.insights.example.com/us_northfield/user_profiles");
  });
});

describe("hubs", () => {
  it("read their type from the path, the spaced spelling included", () => {
    expect(hubTypeOf("/northfield/agent/admissions/knowledge%20store")).toBe("knowledge-store");
    expect(hubTypeOf("/northfield/ai-finetuning/controls")).toBe("controls");
    expect(HUBS[hubTypeOf("/northfield/whatever")]).toBeUndefined();
  });

  it("link their cards beside the hub, under the agent when there is one", () => {
    expect(hubBasePath("/northfield/agent/admissions/knowledge%20store", "knowledge-store")).toBe(
      "/northfield/agent/admissions/knowledge-store",
    );
    expect(hubBasePath("/northfield/ai-finetuning/controls", "controls")).toBe("/northfield/controls");
  });
});

describe("the console's permission mirror", () => {
  const user = (
    user_type: "user" | "admin" | "super_admin",
    app_roles: { app_id: number; role: "client_user" | "client_admin" }[] = [],
  ) => ({ user_type, app_roles });
  it("follows the role table", async () => {
    const { userCan } = await import("./permissions");
    expect(userCan(user("admin"), "manage_users")).toBe(true);
    expect(userCan(user("user", [{ app_id: 1, role: "client_admin" }]), "manage_users")).toBe(false);
    expect(userCan(user("user", [{ app_id: 1, role: "client_admin" }]), "configure", 1)).toBe(true);
    expect(userCan(user("user", [{ app_id: 1, role: "client_admin" }]), "configure", 2)).toBe(false);
    expect(userCan(user("user", [{ app_id: 1, role: "client_user" }]), "manage_access", 1)).toBe(false);
    expect(userCan(user("super_admin"), "configure", 99)).toBe(true);
  });
});
