import { z } from "zod";
import { Id } from "./common";
import {
  PROFILE_GROUPS,
  FIELD_TYPES,
  MODEL_TYPES,
  FIELD_NAME_INVALID,
  FIELD_NAME_PATTERN,
  tidyFieldName,
} from "./values/personalisation";
export * from "./values/personalisation";
export const FieldType = z.enum(FIELD_TYPES, { error: "Choose a type: text, number, boolean, array or json" });
export type FieldType = z.infer<typeof FieldType>;
export const ModelType = z.enum(MODEL_TYPES, { error: "model_type must be user_profile or program_profile" });
export type ModelType = z.infer<typeof ModelType>;

export const ConfigDetail = z.object({
  id: z.number().int(),
  app_id: z.number().int(),
  name: z.string(),
  definition: z.string(),
  field_type: FieldType,
  group: z.string(),
  model_type: ModelType,
});
export type ConfigDetail = z.infer<typeof ConfigDetail>;

export const ConfigDetailsQuery = z.object({ model_type: ModelType.optional() });
export const ConfigDetailsList = z.object({ personalisation_config_details: z.array(ConfigDetail) });
export type ConfigDetailsList = z.infer<typeof ConfigDetailsList>;

export const ConfigDetailInput = z.object({
  id: Id.optional(),
  // Tidied before its length is counted: the name is measured as it is stored.
  name: z
    .string({ error: "This string is required" })
    .trim()
    .overwrite(tidyFieldName)
    .min(1, { message: "This string is required", abort: true })
    .max(100, "A field name is at most 100 characters")
    .regex(FIELD_NAME_PATTERN, FIELD_NAME_INVALID),
  definition: z
    .string({ error: "The definition must be text" })
    .trim()
    .max(1000, "A definition is at most 1,000 characters")
    .default(""),
  field_type: FieldType,
  group: z.enum(PROFILE_GROUPS, { error: "Choose a group" }),
  model_type: ModelType,
});
export type ConfigDetailInput = z.input<typeof ConfigDetailInput>;

export const ConfigDetailsBody = z.object({
  personalisation_config_details: z
    .array(ConfigDetailInput, { error: "personalisation_config_details must be a list" })
    .min(1, "Add at least one field")
    .max(500, "Save at most 500 fields at a time"),
});
export type ConfigDetailsBody = z.input<typeof ConfigDetailsBody>;
export const ConfigDetailsSaved = ConfigDetailsList.extend({ message: z.string() });

export const DeleteRecordBody = z.object({ record_id: Id });
export const SuccessResult = z.object({ success: z.literal(true), message: z.string() });

export const ImportConfigBody = z.object({
  import_app_code: z
    .string({ error: "Choose the client to import from" })
    .trim()
    .min(1, "Choose the client to import from")
    .max(100),
  /** Which model to copy; both when omitted. */
  model_type: ModelType.optional(),
});
export const ImportConfigResult = z.object({
  status: z.literal("success"),
  message: z.string(),
  configs: z.array(ConfigDetail),
});

export const RecommendationBuildResult = z.object({
  success: z.literal(true),
  message: z.string(),
  job_id: z.string().nullable(),
});

/** The state of the last recommendation model build, for the page's progress line. */
export const RecommendationStatus = z.object({
  state: z.enum(["never", "queued", "running", "completed", "failed"]),
  job_id: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** Pages looked at and programs found so far (or in the finished build). */
  progress: z.object({ pages: z.number().int(), programs: z.number().int() }).nullable(),
  error: z.string().nullable(),
  method: z.enum(["rules", "llm"]).nullable(),
});
export type RecommendationStatus = z.infer<typeof RecommendationStatus>;

/** A program the build found: its model fields as stated by the page it came from. */
export const ProgramRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  source_url: z.string(),
  values: z.record(z.string(), z.unknown()),
  /** The sentence each value was read from. */
  evidence: z.record(z.string(), z.string()),
  built_at: z.string(),
});
export type ProgramRecord = z.infer<typeof ProgramRecord>;
export const ProgramRecordsList = z.object({ programs: z.array(ProgramRecord), status: RecommendationStatus });
export type ProgramRecordsList = z.infer<typeof ProgramRecordsList>;
