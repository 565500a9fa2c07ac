import { z } from "zod";
import { IdParam } from "./common";
import { unsafeStringsOf } from "./safe-strings";
export * from "./values/appearance";

export const AppearanceQuery = z.object({
  appId: IdParam,
  triggerPoint: z.string().trim().max(100).default(""),
});
export const AppearanceData = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
export const AppearanceFieldSchema = z.object({
  name: z.string(),
  internalName: z.string(),
  label: z.string(),
  type: z.enum(["text", "number", "color", "image", "select", "radio", "boolean"]),
  options: z.array(z.object({ value: z.string(), label: z.string() })),
  defaultValue: z.union([z.string(), z.number(), z.boolean()]),
  style: z.string(),
  unit: z.string(),
  isHidden: z.boolean(),
  group: z.string(),
  min: z.number().optional(),
  max: z.number().optional(),
  maxLength: z.number().optional(),
  required: z.boolean().optional(),
});
export const AppearanceResponse = z.object({
  data: AppearanceData,
  fields_data: z.object({
    BASIC_SETTINGS_FIELDS: z.array(AppearanceFieldSchema),
    ADVANCED_SETTINGS_FIELDS: z.array(AppearanceFieldSchema),
    IMAGES_AND_ICONS: z.array(AppearanceFieldSchema),
  }),
  /** When production last received the stage values (null: never pushed). */
  pushed_at: z.string().nullable(),
});
export type AppearanceResponse = z.infer<typeof AppearanceResponse>;
/**
 * `appearance.value`: the widget's values by internal name. An object, or the same object as JSON
 * text (how a form or an older client may send it).
 */
const AppearanceValueInput = z.preprocess(
  (value) => {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  },
  z
    .record(z.string(), z.unknown(), { error: "appearance.value must be an object of values by setting name" })
    // Values sent as JSON text were parsed here, past the API's guard of every request's strings.
    .superRefine((values, ctx) => {
      for (const [field, messages] of Object.entries(unsafeStringsOf(values)))
        ctx.addIssue({ code: "custom", path: field.split("."), message: messages[0] });
    }),
);
const AppearanceInput = z.object({ value: AppearanceValueInput }, { error: "Send the values as appearance.value" });

/** Where a save goes: production (the push) or stage; stage when absent. */
export const APPEARANCE_TARGET_ENVS = ["stage", "staging", "sandbox", "production", "prod"] as const;
export const isProductionTarget = (targetEnv: string | undefined) => targetEnv === "production" || targetEnv === "prod";

export const AppearancePutBody = z.object({
  appearance: AppearanceInput,
  /** "production" saves the given values as production's (the push); stage otherwise. */
  targetEnv: z
    .enum(APPEARANCE_TARGET_ENVS, { error: `targetEnv must be one of ${APPEARANCE_TARGET_ENVS.join(", ")}` })
    .optional(),
});
export type AppearancePutBody = z.input<typeof AppearancePutBody>;
/** The values about to be pushed; without them, stage's saved values are compared. */
export const AppearanceDiffBody = z.object({ appearance: AppearanceInput.optional() });
export const AppearanceSaved = z.object({ message: z.string(), data: AppearanceData });
export const AppearanceDiff = z.object({
  current_prod_style_guide: AppearanceData,
  current_stage_style_guide: AppearanceData,
  /** The fields whose values differ, in catalogue order. */
  changes: z.array(
    z.object({
      internalName: z.string(),
      label: z.string(),
      production: z.union([z.string(), z.number(), z.boolean()]),
      stage: z.union([z.string(), z.number(), z.boolean()]),
    }),
  ),
});
export type AppearanceDiff = z.infer<typeof AppearanceDiff>;
export const AppearanceUpload = z.object({ url: z.string(), message: z.string() });
