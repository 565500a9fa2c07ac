import {
  AGENT_STATUS_LABELS,
  AGENT_TYPE_LABELS,
  APP_ROLE_LABELS,
  COPY_MARKETS,
  COUNTRIES,
  FILE_TAG_LABELS,
  fileSizeText,
  MODE_ENV_LABELS,
  type ChangeLine,
} from "@contract";
import { systemNamed } from "../../integrations/catalog";
import { asList, asRecord, fieldLines, listLines, text, words, type Field, type ListSpec } from "./lines";

/*
 * The client's own things: integrations (without secrets), websites' settings, agents, access,
 * files and the client's profile. Websites, agents and files are recorded one by one: a state is
 * the thing itself, or null before it was added (or after it went), read here as a list of one.
 */

const one = (state: unknown) => {
  const thing = asRecord(state);
  return thing ? [thing] : [];
};
const labelOf = (labels: Record<string, string>) => (value: unknown) => `'${labels[text(value)] ?? text(value)}'`;

type Recorded = Record<string, unknown>;

function catalogEntryOf(integration: Recorded) {
  const system = systemNamed(text(integration.external_system));
  return { system, usecase: system?.integration_settings.find((u) => u.usecase === integration.usecase) };
}

/** An integration's settings, each by the title its drawer gives it (a secret shows only that it was replaced). */
function integrationFields(integration: Recorded): Field<Recorded>[] {
  const { usecase } = catalogEntryOf(integration);
  const stored = Object.keys(asRecord(integration.settings_json) ?? {});
  // The drawer's order (the database keeps an object's keys in an order of its own), then any it no longer offers.
  const offered = (usecase?.settings_json ?? []).map((field) => field.name);
  const settings = [
    ...offered.filter((name) => stored.includes(name)),
    ...stored.filter((name) => !offered.includes(name)).sort(),
  ];
  return [
    { label: "Name", get: (i) => text(i.name) },
    ...settings.map((name): Field<Recorded> => ({
      label: usecase?.settings_json.find((field) => field.name === name)?.title ?? words(name),
      get: (i) => asRecord(i.settings_json)?.[name],
    })),
  ];
}

/** Integrations, each one per system, use case and environment (as the save keeps them). */
export function integrationLines(before: unknown, after: unknown): ChangeLine[] {
  const spec: ListSpec<Recorded> = {
    key: (i) => [i.external_system, i.usecase, i.environment].map(text).join("\u0000"),
    name: (i) => `'${catalogEntryOf(i).system?.title ?? text(i.external_system)}'`,
    context: [
      { label: "Environment", get: (i) => text(i.environment), show: String },
      { label: "Use Case", get: (i) => catalogEntryOf(i).usecase?.title ?? text(i.usecase), show: String },
    ],
    fields: integrationFields,
  };
  return listLines("Integrations", spec, asList(before), asList(after));
}

const WEBSITE_FIELDS: Field<Recorded>[] = [
  { label: "URL", get: (site) => site.url, inName: true },
  { label: "Scan Mode", get: (site) => site.site_map },
  { label: "Enabled", get: (site) => site.enabled },
  { label: "Data Tags", get: (site) => site.tags, set: true },
  { label: "Skip Patterns", get: (site) => site.skip_patterns, set: true },
  { label: "Allowed Patterns", get: (site) => site.allowed_patterns, set: true },
];

/** The Websites table's columns by the stored setting each shows: summaries name what changed with them. */
export const WEBSITE_LABELS: Record<string, string> = {
  url: "URL",
  site_map: "Scan Mode",
  enabled: "Enabled",
  tags: "Data Tags",
  skip_patterns: "Skip Patterns",
  allowed_patterns: "Allowed Patterns",
};

/** One website's settings (what people chose, not what crawling made of it). */
export function websiteLines(before: unknown, after: unknown): ChangeLine[] {
  const spec: ListSpec<Recorded> = {
    key: () => "the website",
    name: (site) => `'${text(site.url)}'`,
    fields: WEBSITE_FIELDS,
  };
  return listLines("Websites", spec, one(before), one(after));
}

/** The agent form's fields by the stored setting each shows. */
export const AGENT_LABELS: Record<string, string> = {
  name: "Name",
  agent_type: "Agent Type",
  site_code: "Site Code",
  logo: "Logo",
  url: "URL",
  status: "Status",
  mode_env: "Mode",
  metadata: "Other Settings",
};

const AGENT_FIELDS: Field<Recorded>[] = [
  { label: AGENT_LABELS.name, get: (agent) => agent.name, inName: true },
  { label: AGENT_LABELS.agent_type, get: (agent) => agent.agent_type, show: labelOf(AGENT_TYPE_LABELS) },
  { label: AGENT_LABELS.site_code, get: (agent) => agent.site_code },
  // The form shows the logo itself, not where it is kept (as the client's logo reads).
  { label: AGENT_LABELS.logo, get: (agent) => agent.logo, show: (value) => (value ? "an uploaded image" : "(none)") },
  { label: AGENT_LABELS.url, get: (agent) => agent.url },
  { label: AGENT_LABELS.status, get: (agent) => agent.status, show: labelOf(AGENT_STATUS_LABELS) },
  { label: AGENT_LABELS.mode_env, get: (agent) => agent.mode_env, show: labelOf(MODE_ENV_LABELS) },
  // Empty settings are no settings: a new agent's {} is not listed.
  {
    label: AGENT_LABELS.metadata,
    get: (agent) => (Object.keys(asRecord(agent.metadata) ?? {}).length ? agent.metadata : null),
  },
];

/** One agent, named by its name. */
export function agentLines(before: unknown, after: unknown): ChangeLine[] {
  const spec: ListSpec<Recorded> = {
    key: () => "the agent",
    name: (agent) => `'${text(agent.name)}'`,
    fields: AGENT_FIELDS,
  };
  return listLines("Agents", spec, one(before), one(after));
}

/** Who has access to the client, each by email, with the Access Control screen's Name and Role. */
export function accessLines(before: unknown, after: unknown): ChangeLine[] {
  const spec: ListSpec<Recorded> = {
    key: (member) => text(member.email).toLowerCase(),
    name: (member) => `'${text(member.email)}'`,
    fields: [
      { label: "Name", get: (member) => member.name },
      { label: "Role", get: (member) => member.role, show: labelOf(APP_ROLE_LABELS) },
    ],
  };
  return listLines("Access Control", spec, asList(before), asList(after));
}

/** The Files screen's columns by the stored setting each shows: summaries name what changed with them. */
export const FILE_LABELS: Record<string, string> = {
  file_name: "File Name",
  tags: "Tags",
  size: "Size",
};

const tagLabels: Record<string, string> = FILE_TAG_LABELS;

const FILE_FIELDS: Field<Recorded>[] = [
  { label: FILE_LABELS.file_name, get: (file) => file.file_name, inName: true },
  {
    label: FILE_LABELS.tags,
    get: (file) => (Array.isArray(file.tags) ? file.tags.map((tag) => tagLabels[text(tag)] ?? text(tag)) : []),
    set: true,
  },
  {
    label: FILE_LABELS.size,
    get: (file) => file.size,
    show: (size) => (typeof size === "number" ? fileSizeText(size) : text(size)),
  },
];

/** One uploaded file, named by its name: added once its upload completed, its tags, removed when deleted. */
export function fileLines(before: unknown, after: unknown): ChangeLine[] {
  const spec: ListSpec<Recorded> = {
    key: () => "the file",
    name: (file) => `'${text(file.file_name)}'`,
    fields: FILE_FIELDS,
  };
  return listLines("Files", spec, one(before), one(after));
}

/** The client form's fields by the stored setting each shows (Status is set by staff, not on the form). */
export const CLIENT_PROFILE_LABELS: Record<string, string> = {
  client_name: "Client Name",
  primary_website: "Primary Website",
  logo_url: "Logo",
  country: "Country",
  market: "Market",
  project_url: "Project URL",
  url_code: "URL Code",
  copy_market: "Copy Market",
  client_type: "Client Type",
  trigger_points: "Trigger Points",
  mode_env: "Mode",
  insync_prod_app_id: "InSync Prod App ID",
  onboard_existing_client: "Onboard existing client",
  notes: "Notes",
  status: "Status",
};

const optionLabels = (options: readonly { value: string; label: string }[]): Record<string, string> =>
  Object.fromEntries(options.map((option) => [option.value, option.label]));

/** A choice of a select by its option's label; none chosen is "(empty)", as a text field's. */
const choiceOf = (labels: Record<string, string>) => (value: unknown) =>
  text(value) === "" ? "(empty)" : labelOf(labels)(value);

const CLIENT_PROFILE_SHOW: Record<string, (value: unknown) => string> = {
  // The form shows the logo itself, not where it is kept.
  logo_url: (value) => (value ? "an uploaded image" : "(none)"),
  country: choiceOf(optionLabels(COUNTRIES)),
  copy_market: choiceOf(optionLabels(COPY_MARKETS)),
  mode_env: choiceOf(MODE_ENV_LABELS),
};

const CLIENT_PROFILE_FIELDS: Field<Recorded>[] = Object.entries(CLIENT_PROFILE_LABELS).map(([name, label]) => ({
  label,
  get: (client) => client[name],
  ...(CLIENT_PROFILE_SHOW[name] ? { show: CLIENT_PROFILE_SHOW[name] } : {}),
  ...(name === "trigger_points" ? { set: true as const } : {}),
}));

/** The client's profile, field by field as its form labels them. */
export function clientProfileLines(before: unknown, after: unknown): ChangeLine[] {
  return fieldLines("Client Profile", CLIENT_PROFILE_FIELDS, asRecord(before), asRecord(after));
}
