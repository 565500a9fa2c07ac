import {
  DEFAULT_INTEGRATION_ENVIRONMENT,
  INTEGRATION_ENVIRONMENTS,
  INTEGRATION_GROUPS,
  SECRET_MASK_PREFIX,
  settingValueError,
} from "@contract/values/integrations";
import type { ConfigSystem, Integration, IntegrationsList } from "@contract";
import type { FieldErrors } from "./required-check";

/*
 * Pure rules of the Integrations screen: which system, use case and environment the drawer shows
 * (all by address: `?link=<system>&usecase=…&environment=…`), what is already saved for them,
 * the form's field names, and the checks of a posted form before it goes to the API.
 */

export type IntegrationEnvironment = (typeof INTEGRATION_ENVIRONMENTS)[number];
export type IntegrationConfigs = IntegrationsList["configs"];

export const INTEGRATIONS_READ_ONLY_MESSAGE = "You can view this client's integrations, but not change them.";
export const ENVIRONMENT_LABELS: Record<IntegrationEnvironment, string> = {
  staging: "Staging",
  production: "Production",
};

/** The search params that open the drawer; the page without them is the drawer closed. */
export const DRAWER_PARAMS = ["link", "usecase", "environment"] as const;

export interface DrawerChoice {
  system: ConfigSystem;
  usecase: ConfigSystem["integration_settings"][number];
  environment: IntegrationEnvironment;
}

const isEnvironment = (value: string): value is IntegrationEnvironment =>
  (INTEGRATION_ENVIRONMENTS as readonly string[]).includes(value);

/** An environment as the screen names it; one the console does not know (from an import, say) as stored. */
export const environmentLabel = (environment: string) =>
  isEnvironment(environment) ? ENVIRONMENT_LABELS[environment] : environment;

/** Every system of the catalogue, in group order. */
export const allSystems = (configs: IntegrationConfigs) => INTEGRATION_GROUPS.flatMap((group) => configs[group]);

/**
 * What the drawer shows for the page's search params, or null when no known system is asked for.
 * An address is only a view: an unknown use case or environment falls back to the first and to staging.
 */
export function drawerChoice(configs: IntegrationConfigs, params: URLSearchParams): DrawerChoice | null {
  const system = allSystems(configs).find((candidate) => candidate.name === params.get("link"));
  if (!system || system.integration_settings.length === 0) return null;
  const usecase =
    system.integration_settings.find((u) => u.usecase === params.get("usecase")) ?? system.integration_settings[0];
  const asked = params.get("environment") ?? "";
  return { system, usecase, environment: isEnvironment(asked) ? asked : DEFAULT_INTEGRATION_ENVIRONMENT };
}

/**
 * What a posted form asks to save. Unlike an address, a save never falls back: an unknown system,
 * a use case the system does not have or an unknown environment is refused (a blank environment is staging).
 */
export function postedChoice(
  configs: IntegrationConfigs,
  posted: { external_system: string; usecase: string; environment: string },
): { choice: DrawerChoice; error: null } | { choice: null; error: string } {
  const system = allSystems(configs).find((candidate) => candidate.name === posted.external_system);
  if (!system) return { choice: null, error: "Choose a system to link." };
  const usecase = system.integration_settings.find((u) => u.usecase === posted.usecase);
  if (!usecase) return { choice: null, error: `Choose one of ${system.title}'s use cases.` };
  const environment = posted.environment || DEFAULT_INTEGRATION_ENVIRONMENT;
  if (!isEnvironment(environment)) return { choice: null, error: "Choose staging or production." };
  return { choice: { system, usecase, environment }, error: null };
}

/** The saved link for exactly this system, use case and environment, if any. */
export const savedLink = (integrations: Integration[], choice: DrawerChoice) =>
  integrations.find(
    (i) =>
      i.external_system === choice.system.name &&
      i.usecase === choice.usecase.usecase &&
      i.environment === choice.environment,
  ) ?? null;

/** The environments a system is linked in (for its card). */
export const linkedEnvironments = (integrations: Integration[], system: string) =>
  [...new Set(integrations.filter((i) => i.external_system === system).map((i) => i.environment))].sort();

/** The form's name for a setting's input (kept apart from the form's own fields). */
export const settingInputName = (setting: string) => `settings.${setting}`;

export const NAME_MAX_LENGTH = 200;

/**
 * The drawer's checks, run by the action before anything reaches the API: the name's length,
 * required settings (a kept secret's mask counts), and the API's rules on the values typed, so
 * that one save names every problem.
 */
export function checkLinkForm(
  choice: DrawerChoice,
  values: { name: string; settings: Record<string, string> },
): FieldErrors {
  const errors: FieldErrors = {};
  if (values.name.length > NAME_MAX_LENGTH) errors.name = [`Names are at most ${NAME_MAX_LENGTH} characters`];
  for (const field of choice.usecase.settings_json) {
    const typed = values.settings[field.name] ?? "";
    const problem = field.required && !typed.trim() ? `${field.title} is required` : settingValueError(field, typed);
    if (problem) errors[field.name] = [problem];
  }
  return errors;
}

export const isMaskedSecret = (value: string) => value.startsWith(SECRET_MASK_PREFIX);

/**
 * The settings a refused save sends back to the form. A secret that was just typed is left out (the
 * page never carries a secret in full); a mask posted back is kept, since it stands for the stored one.
 */
export function settingsToEcho(choice: DrawerChoice, settings: Record<string, string>) {
  const echoed: Record<string, string> = {};
  for (const field of choice.usecase.settings_json) {
    const value = settings[field.name] ?? "";
    echoed[field.name] = field.secret && !isMaskedSecret(value) ? "" : value;
  }
  return echoed;
}

/** The secrets a refused save typed and does not send back (settingsToEcho left them out). */
export function withheldSecrets(choice: DrawerChoice, settings: Record<string, string>) {
  return choice.usecase.settings_json
    .filter((field) => field.secret && (settings[field.name] ?? "") !== "" && !isMaskedSecret(settings[field.name]))
    .map((field) => field.name);
}

/** What a withheld secret's field says: without JavaScript the page comes back with it empty. */
export const TYPE_SECRET_AGAIN = "Type it again: a secret is never sent back to the page.";

/** The form's values as loaded (what a save compares against to know the form changed). */
export function linkFormBaseline(choice: DrawerChoice, saved: Integration | null): Record<string, string> {
  const baseline: Record<string, string> = { name: saved?.name ?? "" };
  for (const field of choice.usecase.settings_json)
    baseline[settingInputName(field.name)] = saved?.settings_json[field.name] ?? "";
  return baseline;
}

/** Whether any of the baseline's fields now holds something else. */
export const differsFromBaseline = (baseline: Record<string, string>, current: Record<string, string>) =>
  Object.entries(baseline).some(([name, value]) => (current[name] ?? "") !== value);

/**
 * The API's refusals of one saved integration, keyed `integrations.0.settings_json.<setting>` (or
 * `integrations.0.name`), as messages beside the drawer's fields; anything else is the form's.
 */
export function apiRefusalsToFields(apiErrors: Record<string, string[]>): {
  errors: FieldErrors;
  formMessages: string[];
} {
  const errors: FieldErrors = {};
  const formMessages: string[] = [];
  for (const [path, messages] of Object.entries(apiErrors)) {
    const field =
      /^integrations\.0\.settings_json\.(.+)$/.exec(path)?.[1] ?? (path === "integrations.0.name" ? "name" : null);
    if (field) errors[field] = [...(errors[field] ?? []), ...messages];
    else formMessages.push(...messages);
  }
  return { errors, formMessages };
}

/** This page's address with some search params set or (null) removed: the drawer, its choices and closing it are all links. */
export function addressWith(pathname: string, search: string, changes: Record<string, string | null>) {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  // Remix marks posts to index routes with `?index`; it is never part of a page's address.
  params.delete("index");
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ""}`;
}

/** The page with the drawer closed. */
export const closedDrawerAddress = (pathname: string, search: string) =>
  addressWith(pathname, search, Object.fromEntries(DRAWER_PARAMS.map((key) => [key, null])));
