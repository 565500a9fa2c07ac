import {
  DEFAULT_INTEGRATION_ENVIRONMENT, INTEGRATION_ENVIRONMENTS, INTEGRATION_GROUPS, type ConfigSystem, type Integration, type IntegrationsList,
} from "../../contract";
import type { FieldErrors } from "./required-check";

/*
 * Pure rules of the Integrations screen: which system, use case and environment the drawer shows
 * (all by address: `?link=<system>&usecase=…&environment=…`), what is already saved for them,
 * and the check of the posted settings before they go to the API.
 */

export type IntegrationEnvironment = (typeof INTEGRATION_ENVIRONMENTS)[number];

export interface DrawerChoice {
  system: ConfigSystem;
  usecase: ConfigSystem["integration_settings"][number];
  environment: IntegrationEnvironment;
}

/** Every system of the catalogue, in group order. */
export const allSystems = (configs: IntegrationsList["configs"]) => INTEGRATION_GROUPS.flatMap((group) => configs[group]);

/** What the drawer edits for these search params, or null when no (known) system is asked for. */
export function drawerChoice(configs: IntegrationsList["configs"], params: URLSearchParams): DrawerChoice | null {
  const system = allSystems(configs).find((candidate) => candidate.name === params.get("link"));
  if (!system || system.integration_settings.length === 0) return null;
  const usecase = system.integration_settings.find((u) => u.usecase === params.get("usecase")) ?? system.integration_settings[0];
  const asked = params.get("environment");
  const environment = (INTEGRATION_ENVIRONMENTS as readonly string[]).includes(asked ?? "") ? (asked as IntegrationEnvironment) : DEFAULT_INTEGRATION_ENVIRONMENT;
  return { system, usecase, environment };
}

/** The saved link for exactly this system, use case and environment, if any. */
export const savedLink = (integrations: Integration[], choice: DrawerChoice) =>
  integrations.find((i) => i.external_system === choice.system.name && i.usecase === choice.usecase.usecase && i.environment === choice.environment) ?? null;

/** The environments a system is linked in (for its card). */
export const linkedEnvironments = (integrations: Integration[], system: string) =>
  [...new Set(integrations.filter((i) => i.external_system === system).map((i) => i.environment))].sort();

/** The form's name for a setting's input. */
export const settingInputName = (setting: string) => `settings.${setting}`;

/** The required check of the drawer's settings: each required field needs a value (a kept secret's mask counts). */
export function checkSettings(choice: DrawerChoice, values: Record<string, string>): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of choice.usecase.settings_json) {
    if (field.required && !(values[field.name] ?? "").trim()) errors[field.name] = [`${field.title} is required`];
  }
  return errors;
}
