import type { ConfigSystem, IntegrationGroup, SettingField } from "@contract";

const field = (
  name: string,
  title: string,
  options: Partial<Omit<SettingField, "name" | "title">> = {},
): SettingField => ({
  name,
  title,
  required: options.required ?? true,
  placeholder: options.placeholder ?? "",
  info: options.info ?? "",
  secret: options.secret ?? false,
});

const LEAD_SYNC = { usecase: "lead_sync", title: "Send captured leads" };
const COURSE_CATALOG = { usecase: "course_catalog", title: "Read the course catalogue" };

/**
 * The systems a client can link, grouped CRM ('Agent System Integration') and LMS ('Learning
 * Management System'), each with the settings its use cases need. Fields marked secret are
 * encrypted at rest and never sent back in full.
 */
export const INTEGRATION_CATALOG: ConfigSystem[] = [
  {
    name: "salesforce",
    title: "Salesforce",
    group: "CRM",
    icon: "/integrations/salesforce.svg",
    integration_guide: "https://help.salesforce.com/s/articleView?id=sf.connected_app_create_api_integration.htm",
    integration_settings: [
      {
        ...LEAD_SYNC,
        settings_json: [
          field("instance_url", "Instance URL", {
            placeholder: "https://yourorg.my.salesforce.com",
            info: "Your org's My Domain address.",
          }),
          field("client_id", "Consumer Key", { info: "From the connected app created for the console." }),
          field("client_secret", "Consumer Secret", { secret: true, info: "From the same connected app." }),
          field("lead_source", "Lead Source", {
            required: false,
            placeholder: "Website Chat",
            info: "Written to each lead's Lead Source.",
          }),
        ],
      },
    ],
  },
  {
    name: "hubspot",
    title: "HubSpot",
    group: "CRM",
    icon: "/integrations/hubspot.svg",
    integration_guide: "https://developers.hubspot.com/docs/api/private-apps",
    integration_settings: [
      {
        ...LEAD_SYNC,
        settings_json: [
          field("private_app_token", "Private App Access Token", {
            secret: true,
            placeholder: "pat-na1-…",
            info: "Needs the crm.objects.contacts.write scope.",
          }),
          field("owner_email", "Contact Owner Email", {
            required: false,
            placeholder: "admissions@university.edu",
            info: "New contacts are assigned to this HubSpot user.",
          }),
        ],
      },
    ],
  },
  {
    name: "slate",
    title: "Slate",
    group: "CRM",
    icon: "/integrations/slate.svg",
    integration_guide: "https://technolutions.com/",
    integration_settings: [
      {
        ...LEAD_SYNC,
        settings_json: [
          field("base_url", "Slate Instance URL", {
            placeholder: "https://apply.university.edu",
            info: "The address of your Slate database.",
          }),
          field("source_format", "Source Format Key", { info: "The upload source format that receives chat leads." }),
          field("username", "Service Username"),
          field("password", "Service Password", { secret: true }),
        ],
      },
    ],
  },
  {
    name: "dynamics365",
    title: "Microsoft Dynamics 365",
    group: "CRM",
    icon: "/integrations/dynamics365.svg",
    integration_guide: "https://learn.microsoft.com/en-us/power-apps/developer/data-platform/webapi/overview",
    integration_settings: [
      {
        ...LEAD_SYNC,
        settings_json: [
          field("environment_url", "Environment URL", { placeholder: "https://yourorg.crm.dynamics.com" }),
          field("tenant_id", "Directory (Tenant) ID"),
          field("client_id", "Application (Client) ID"),
          field("client_secret", "Client Secret", { secret: true }),
        ],
      },
    ],
  },
  {
    name: "canvas",
    title: "Canvas",
    group: "LMS",
    icon: "/integrations/canvas.svg",
    integration_guide: "https://canvas.instructure.com/doc/api/",
    integration_settings: [
      {
        ...COURSE_CATALOG,
        settings_json: [
          field("base_url", "Canvas URL", { placeholder: "https://university.instructure.com" }),
          field("access_token", "Access Token", { secret: true, info: "A token of an account that may read courses." }),
          field("account_id", "Account ID", {
            required: false,
            placeholder: "1",
            info: "Limit the catalogue to one sub-account.",
          }),
        ],
      },
    ],
  },
  {
    name: "moodle",
    title: "Moodle",
    group: "LMS",
    icon: "/integrations/moodle.svg",
    integration_guide: "https://docs.moodle.org/en/Using_web_services",
    integration_settings: [
      {
        ...COURSE_CATALOG,
        settings_json: [
          field("site_url", "Moodle Site URL", { placeholder: "https://moodle.university.edu" }),
          field("web_service_token", "Web Service Token", { secret: true, info: "Needs core_course_get_courses." }),
        ],
      },
    ],
  },
  {
    name: "blackboard",
    title: "Blackboard Learn",
    group: "LMS",
    icon: "/integrations/blackboard.svg",
    integration_guide: "https://developer.anthology.com/",
    integration_settings: [
      {
        ...COURSE_CATALOG,
        settings_json: [
          field("base_url", "Learn URL", { placeholder: "https://learn.university.edu" }),
          field("application_key", "Application Key"),
          field("application_secret", "Application Secret", { secret: true }),
        ],
      },
    ],
  },
  {
    name: "brightspace",
    title: "D2L Brightspace",
    group: "LMS",
    icon: "/integrations/brightspace.svg",
    integration_guide: "https://docs.valence.desire2learn.com/",
    integration_settings: [
      {
        ...COURSE_CATALOG,
        settings_json: [
          field("base_url", "Brightspace URL", { placeholder: "https://university.brightspace.com" }),
          field("client_id", "Client ID"),
          field("client_secret", "Client Secret", { secret: true }),
          field("org_unit_id", "Org Unit ID", { required: false, info: "Limit the catalogue to one org unit." }),
        ],
      },
    ],
  },
];

export const systemNamed = (name: string) => INTEGRATION_CATALOG.find((system) => system.name === name) ?? null;

export function catalogByGroup(): Record<IntegrationGroup, ConfigSystem[]> {
  return {
    CRM: INTEGRATION_CATALOG.filter((s) => s.group === "CRM"),
    LMS: INTEGRATION_CATALOG.filter((s) => s.group === "LMS"),
  };
}
