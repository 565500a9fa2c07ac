import { z } from "zod";
import {
  INTEGRATION_GROUPS,
  INTEGRATION_ENVIRONMENTS,
  DEFAULT_INTEGRATION_ENVIRONMENT,
  SETTING_MAX_CHARS,
  SETTING_TOO_LONG,
} from "./values/integrations";
export * from "./values/integrations";
export const IntegrationGroup = z.enum(INTEGRATION_GROUPS);
export type IntegrationGroup = z.infer<typeof IntegrationGroup>;

export const SettingField = z.object({
  /** The key under settings_json. */
  name: z.string(),
  title: z.string(),
  required: z.boolean(),
  placeholder: z.string(),
  info: z.string(),
  /** Keys, tokens and passwords: encrypted at rest, masked in every answer. */
  secret: z.boolean(),
});
export type SettingField = z.infer<typeof SettingField>;

export const IntegrationUsecase = z.object({
  usecase: z.string(),
  title: z.string(),
  settings_json: z.array(SettingField),
});
export type IntegrationUsecase = z.infer<typeof IntegrationUsecase>;

/** A system the console can link (the catalogue we ship). */
export const ConfigSystem = z.object({
  name: z.string(),
  title: z.string(),
  group: IntegrationGroup,
  icon: z.string(),
  integration_guide: z.string(),
  integration_settings: z.array(IntegrationUsecase),
});
export type ConfigSystem = z.infer<typeof ConfigSystem>;

/** A saved link of this client to a system (secrets masked). */
export const Integration = z.object({
  id: z.number().int(),
  name: z.string(),
  environment: z.string(),
  usecase: z.string(),
  external_system: z.string(),
  settings_json: z.record(z.string(), z.string()),
  updated_at: z.string(),
});
export type Integration = z.infer<typeof Integration>;

export const IntegrationsList = z.object({
  configs: z.object({ CRM: z.array(ConfigSystem), LMS: z.array(ConfigSystem) }),
  integrations: z.array(Integration),
});
export type IntegrationsList = z.infer<typeof IntegrationsList>;

export const IntegrationInput = z.object({
  /** A label for this link (the system's title when blank). */
  name: z.string({ error: "The name must be text" }).trim().max(200, "Names are at most 200 characters").default(""),
  environment: z
    .enum(INTEGRATION_ENVIRONMENTS, { error: "Choose staging or production" })
    .default(DEFAULT_INTEGRATION_ENVIRONMENT),
  usecase: z.string({ error: "Choose a use case" }).trim().min(1, "Choose a use case").max(100),
  external_system: z.string({ error: "Choose a system" }).trim().min(1, "Choose a system").max(100),
  settings_json: z.record(z.string(), z.string().max(SETTING_MAX_CHARS, SETTING_TOO_LONG), {
    error: "settings_json must be an object of text values",
  }),
});
export type IntegrationInput = z.input<typeof IntegrationInput>;
export const IntegrationsUpsertBody = z.object({
  integrations: z.array(IntegrationInput, { error: "integrations must be a list" }).min(1, "Nothing to save").max(20),
});
export type IntegrationsUpsertBody = z.input<typeof IntegrationsUpsertBody>;
export const IntegrationsSaved = z.object({ message: z.string(), integrations: z.array(Integration) });
