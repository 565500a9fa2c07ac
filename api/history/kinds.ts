import {
  ALL_APPEARANCE_FIELDS,
  CONTROL_LABELS,
  type ChangeKind,
  type ConfigDetail,
  type Finetuning,
  type InputPrompt,
  type ModelType,
} from "@contract";
import { appearanceOf, type Environment } from "../appearance/values";
import { listControls } from "../controls/controls";
import { listFinetunings } from "../controls/finetunings";
import { listInputPrompts } from "../controls/input-prompts";
import { listProbings } from "../controls/probings";
import { listConfigs } from "../personalisation/fields";
import { changedFields, listChanges, listSummary } from "./describe";
import type { Change } from "./record";
import { controlsTouched } from "./written";

/**
 * How each restorable kind (and smart probing, kept beside controls) is read and described: one
 * place, used by the saves that record it and by the restore that writes it back.
 */

/** Controls of a trigger point: every type, as GET /v1/controls answers them. */
export const controlsChange = (appId: number, triggerPoints: string[]): Change => ({
  appId,
  kind: "controls",
  targets: triggerPoints,
  read: (triggerPoint, db) => listControls(appId, triggerPoint, undefined, { db }, db),
  summary: (triggerPoint, before, after, placeName) => {
    const types = controlsTouched(before, after);
    return `${types.map((type) => CONTROL_LABELS[type]).join(", ") || "Controls"} of ${placeName(triggerPoint)} changed`;
  },
});

/** Smart probing texts of a trigger point, as GET …/ai_probings answers them. */
export const probingChange = (appId: number, triggerPoints: string[]): Change => ({
  appId,
  kind: "smart_probing",
  targets: triggerPoints,
  read: (triggerPoint, db) => listProbings(appId, triggerPoint, undefined, db),
  summary: (triggerPoint, _, __, placeName) => `Smart probing of ${placeName(triggerPoint)} changed`,
});

/** Every AI Finetuning rule of the client (one table, every site), as GET …/list_finetunings answers them. */
export const finetuningChange = (appId: number): Change => ({
  appId,
  kind: "finetuning",
  targets: [""],
  read: (_, db) => listFinetunings(appId, undefined, db),
  summary: (_, before, after) => {
    const { added, changed, removed } = listChanges<Finetuning>(before, after, (rule) => String(rule.id));
    const count = (n: number, what: string) => (n ? [`${n} rule${n === 1 ? "" : "s"} ${what}`] : []);
    return `AI Finetuning: ${[...count(added.length, "added"), ...count(changed.length, "changed"), ...count(removed.length, "removed")].join(", ")}`;
  },
});

/** Input prompts of a trigger point, without their save times (a save that changes nothing is not a change). */
export const inputPromptsChange = (appId: number, triggerPoints: string[]): Change => ({
  appId,
  kind: "input_prompts",
  targets: triggerPoints,
  read: async (triggerPoint, db) =>
    (await listInputPrompts(appId, [triggerPoint], db)).map(({ updated_at: _, ...prompt }) => prompt),
  summary: (triggerPoint, before, after, placeName) =>
    listSummary(
      `Input prompts of ${placeName(triggerPoint)}`,
      listChanges<InputPrompt>(before, after, (prompt) => prompt.internal_name),
    ),
});

/** An appearance is one environment of one trigger point: its target is "stage/" (Default's) or "prod/site-code". */
export const appearanceTarget = (environment: Environment, triggerPoint: string) => `${environment}/${triggerPoint}`;
export function appearanceTargetOf(target: string) {
  const slash = target.indexOf("/");
  return { environment: target.slice(0, slash) as Environment, triggerPoint: target.slice(slash + 1) };
}

/**
 * The thing (target) a restore or a revert of a change writes, whose later changes it undoes: the
 * change's own, except a production appearance's, which goes into stage (production changes only
 * through Push to production).
 */
export function targetWrittenBy(kind: ChangeKind, target: string): string {
  if (kind !== "appearance") return target;
  return appearanceTarget("stage", appearanceTargetOf(target).triggerPoint);
}

/** What the widget of one environment and trigger point shows (defaults filled in), as GET /v1/appearances answers it. */
export const appearanceChange = (appId: number, environment: Environment, triggerPoint: string): Change => ({
  appId,
  kind: "appearance",
  targets: [appearanceTarget(environment, triggerPoint)],
  read: async (target, db) => {
    const { environment: env, triggerPoint: point } = appearanceTargetOf(target);
    return (await appearanceOf(appId, point, env, { db })).values;
  },
  summary: (target, before, after, placeName) => {
    const { environment: env, triggerPoint: point } = appearanceTargetOf(target);
    const labels = changedFields(before, after).map(
      (name) => ALL_APPEARANCE_FIELDS.find((f) => f.internalName === name)?.label ?? name,
    );
    const where = `${placeName(point)} (${env === "prod" ? "production" : "stage"})`;
    return labels.length <= 3
      ? `Appearance of ${where}: ${labels.join(", ")}`
      : `Appearance of ${where}: ${labels.length} settings`;
  },
});

export const MODEL_NAMES: Record<ModelType, string> = {
  user_profile: "User profile data model",
  program_profile: "Program profile data model",
};

/** The fields of one data model, as GET …/personalisation_config_details answers them. */
export const dataModelChange = (appId: number, models: ModelType[]): Change => ({
  appId,
  kind: "data_model",
  targets: models,
  read: (model, db) => listConfigs(appId, model as ModelType, { db }),
  summary: (model, before, after) =>
    listSummary(
      MODEL_NAMES[model as ModelType] ?? model,
      listChanges<ConfigDetail>(before, after, (field) => field.name),
    ),
});
