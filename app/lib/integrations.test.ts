import { describe, expect, it } from "vitest";
import { SECRET_MASK_PREFIX, type ConfigSystem, type Integration, type SettingField } from "@contract";
import {
  addressWith,
  apiRefusalsToFields,
  checkLinkForm,
  closedDrawerAddress,
  differsFromBaseline,
  drawerChoice,
  environmentLabel,
  linkedEnvironments,
  linkFormBaseline,
  postedChoice,
  savedLink,
  settingsToEcho,
  withheldSecrets,
  type IntegrationConfigs,
} from "./integrations";

const field = (name: string, title: string, options: Partial<SettingField> = {}): SettingField => ({
  name,
  title,
  required: true,
  placeholder: "",
  info: "",
  secret: false,
  ...options,
});

const crm: ConfigSystem = {
  name: "acme",
  title: "Acme CRM",
  group: "CRM",
  icon: "/integrations/acme.svg",
  integration_guide: "https://acme.example/guide",
  integration_settings: [
    {
      usecase: "lead_sync",
      title: "Send captured leads",
      settings_json: [
        field("url", "Instance URL"),
        field("token", "API Token", { secret: true }),
        field("source", "Lead Source", { required: false }),
      ],
    },
    { usecase: "course_catalog", title: "Read the course catalogue", settings_json: [field("url", "Catalogue URL")] },
  ],
};
const lms: ConfigSystem = {
  name: "learn",
  title: "Learn",
  group: "LMS",
  icon: "/integrations/learn.svg",
  integration_guide: "https://learn.example/",
  integration_settings: [
    { usecase: "course_catalog", title: "Read the course catalogue", settings_json: [field("url", "Learn URL")] },
  ],
};
const configs: IntegrationConfigs = { CRM: [crm], LMS: [lms] };

const link = (overrides: Partial<Integration> = {}): Integration => ({
  id: 1,
  name: "Acme CRM",
  environment: "staging",
  usecase: "lead_sync",
  external_system: "acme",
  settings_json: { url: "https://acme.example", token: `${SECRET_MASK_PREFIX}9876` },
  updated_at: "2026-01-02T03:04:05.000Z",
  ...overrides,
});

describe("the drawer's choice by address", () => {
  it("opens a known system on its first use case and staging, unless the address says otherwise", () => {
    expect(drawerChoice(configs, new URLSearchParams())).toBeNull();
    expect(drawerChoice(configs, new URLSearchParams("link=nothing"))).toBeNull();
    expect(drawerChoice(configs, new URLSearchParams("link=acme"))).toMatchObject({
      system: { name: "acme" },
      usecase: { usecase: "lead_sync" },
      environment: "staging",
    });
    expect(
      drawerChoice(configs, new URLSearchParams("link=acme&usecase=course_catalog&environment=production")),
    ).toMatchObject({ usecase: { usecase: "course_catalog" }, environment: "production" });
    // An address is only a view: anything unknown falls back.
    expect(drawerChoice(configs, new URLSearchParams("link=learn&usecase=lead_sync&environment=prod"))).toMatchObject({
      usecase: { usecase: "course_catalog" },
      environment: "staging",
    });
  });

  it("finds what is saved for exactly that system, use case and environment, and marks the card per environment", () => {
    const saved = [link(), link({ id: 2, environment: "production" }), link({ id: 3, usecase: "course_catalog" })];
    expect(savedLink(saved, drawerChoice(configs, new URLSearchParams("link=acme&environment=production"))!)?.id).toBe(
      2,
    );
    expect(savedLink(saved, drawerChoice(configs, new URLSearchParams("link=learn"))!)).toBeNull();
    expect(linkedEnvironments(saved, "acme")).toEqual(["production", "staging"]);
    expect(linkedEnvironments(saved, "learn")).toEqual([]);
  });

  it("builds the page's links: open, switch and close the drawer, keeping other params", () => {
    expect(addressWith("/c/integrations", "?tab=1", { link: "acme", usecase: null })).toBe(
      "/c/integrations?tab=1&link=acme",
    );
    expect(addressWith("/c/integrations", "?link=acme&index", { environment: "production" })).toBe(
      "/c/integrations?link=acme&environment=production",
    );
    expect(closedDrawerAddress("/c/integrations", "?link=acme&usecase=lead_sync&environment=production")).toBe(
      "/c/integrations",
    );
  });
});

describe("an environment's name on the screen", () => {
  it("is the word its buttons use, and an unknown one stays as stored", () => {
    expect(environmentLabel("staging")).toBe("Staging");
    expect(environmentLabel("production")).toBe("Production");
    expect(environmentLabel("qa")).toBe("qa");
  });
});

describe("a posted link", () => {
  it("must name a known system, one of its use cases and a known environment (blank is staging)", () => {
    expect(
      postedChoice(configs, { external_system: "acme", usecase: "lead_sync", environment: "" }).choice,
    ).toMatchObject({ environment: "staging" });
    expect(
      postedChoice(configs, { external_system: "oracle", usecase: "lead_sync", environment: "staging" }).error,
    ).toBe("Choose a system to link.");
    expect(
      postedChoice(configs, { external_system: "learn", usecase: "lead_sync", environment: "staging" }).error,
    ).toBe("Choose one of Learn's use cases.");
    expect(postedChoice(configs, { external_system: "acme", usecase: "lead_sync", environment: "prod" }).error).toBe(
      "Choose staging or production.",
    );
  });

  it("needs every required setting (a kept secret's mask counts) and a name of at most 200 characters", () => {
    const choice = drawerChoice(configs, new URLSearchParams("link=acme"))!;
    expect(checkLinkForm(choice, { name: "", settings: { url: " ", token: "", source: "" } })).toEqual({
      url: ["Instance URL is required"],
      token: ["API Token is required"],
    });
    expect(
      checkLinkForm(choice, {
        name: "x".repeat(201),
        settings: { url: "https://a", token: `${SECRET_MASK_PREFIX}9876` },
      }),
    ).toEqual({ name: ["Names are at most 200 characters"] });
  });

  it("never sends a newly typed secret back to the form, but keeps a mask posted back", () => {
    const choice = drawerChoice(configs, new URLSearchParams("link=acme"))!;
    expect(settingsToEcho(choice, { url: "https://a", token: "brand-new-secret", source: "Chat" })).toEqual({
      url: "https://a",
      token: "",
      source: "Chat",
    });
    expect(settingsToEcho(choice, { url: "https://a", token: `${SECRET_MASK_PREFIX}9876` })).toEqual({
      url: "https://a",
      token: `${SECRET_MASK_PREFIX}9876`,
      source: "",
    });
  });

  it("names the secrets a refused save typed and does not send back, not a mask or an empty one", () => {
    const choice = drawerChoice(configs, new URLSearchParams("link=acme"))!;
    expect(withheldSecrets(choice, { url: "https://a", token: "brand-new-secret" })).toEqual(["token"]);
    expect(withheldSecrets(choice, { url: "https://a", token: `${SECRET_MASK_PREFIX}9876` })).toEqual([]);
    expect(withheldSecrets(choice, { url: "https://a", token: "" })).toEqual([]);
  });

  it("changes once a field differs from what was loaded", () => {
    const choice = drawerChoice(configs, new URLSearchParams("link=acme"))!;
    const baseline = linkFormBaseline(choice, link());
    expect(baseline).toEqual({
      name: "Acme CRM",
      "settings.url": "https://acme.example",
      "settings.token": `${SECRET_MASK_PREFIX}9876`,
      "settings.source": "",
    });
    expect(differsFromBaseline(baseline, { ...baseline })).toBe(false);
    expect(differsFromBaseline(baseline, { ...baseline, "settings.source": "Chat" })).toBe(true);
    expect(linkFormBaseline(choice, null)).toEqual({
      name: "",
      "settings.url": "",
      "settings.token": "",
      "settings.source": "",
    });
  });

  it("puts the API's refusals beside the fields, and the rest on the form", () => {
    expect(
      apiRefusalsToFields({
        "integrations.0.settings_json.token": ["API Token is required"],
        "integrations.0.name": ["Names are at most 200 characters"],
        "integrations.0.environment": ["Choose staging or production"],
      }),
    ).toEqual({
      errors: { token: ["API Token is required"], name: ["Names are at most 200 characters"] },
      formMessages: ["Choose staging or production"],
    });
  });
});
