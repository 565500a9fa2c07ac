import { z, type ZodType } from "zod";
import {
  CHANGE_KIND_LABELS,
  ConfigDetail,
  ConfigDetailInput,
  Control,
  ControlInput,
  Finetuning,
  FinetuningInput,
  InputPromptInput,
  ModelType,
  NOT_RESTORABLE,
  TOPIC_CONTROL_TYPES,
  type ChangeKind,
  type RestoreState,
} from "@contract";
import { saveAppearance } from "../appearance/values";
import { listControls, saveControls } from "../controls/controls";
import { listFinetunings, saveFinetunings } from "../controls/finetunings";
import { deleteInputPrompt, listInputPrompts, saveInputPrompts } from "../controls/input-prompts";
import type { Database } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import type { configChanges } from "../db/schema";
import type { ApiDeps } from "../deps";
import { badRequest } from "../http/errors";
import { deleteFields, listConfigs, saveConfigDetails } from "../personalisation/fields";
import { queueRunsAfterChange } from "../testing/auto-runs";
import { stateDate } from "./describe";
import { placeNamesOf, type PlaceName } from "./readable/places";
import {
  appearanceChange,
  appearanceTargetOf,
  controlsChange,
  dataModelChange,
  finetuningChange,
  inputPromptsChange,
  MODEL_NAMES,
} from "./kinds";
import { recordChange, type Author, type Change } from "./record";
import { controlsTouched } from "./written";

type Entry = typeof configChanges.$inferSelect;

const UNFIT = "This recorded state no longer fits what can be saved today; change it by hand instead";

/** The recorded state read with its kind's schema; a state that cannot be read is refused, never half-written. */
function stateAs<T>(schema: ZodType<T>, state: unknown): T {
  const parsed = schema.safeParse(state);
  if (!parsed.success) throw badRequest(UNFIT);
  return parsed.data;
}

/**
 * A recorded list (controls, rules, prompts, fields) to write back. Nothing recorded (the state
 * before the thing's first change, as rows written before every list was recorded whole have it)
 * is the empty list: reverting a change that created things removes them.
 */
const listState = <T>(schema: ZodType<T>, state: unknown): T[] =>
  state === null || state === undefined ? [] : stateAs(z.array(schema), state);

/** Rows for a save, checked as that save's body would be: the restore goes through the same rules. */
function asInput<T>(schema: ZodType<T>, rows: unknown[]): NonNullable<T>[] {
  return rows.map((row) => stateAs(schema, row)).filter((row): row is NonNullable<T> => row !== null);
}

const isTopic = (control: Control) => (TOPIC_CONTROL_TYPES as readonly string[]).includes(control.internal_name);
const topicKey = (control: Control) => `${control.internal_name}\u0000${control.prompt_input_raw.toLowerCase()}`;

/**
 * Controls back to a recorded state, through PUT /v1/controls' save: the personality and quality
 * check as they were; topics not in the state cleared (which deletes them), the state's topics
 * saved (a topic still listed is updated in place, keeping its id). `only` limits it to some
 * controls (a revert writes back only what its change touched).
 */
async function restoreControls(appId: number, triggerPoint: string, state: unknown, db: Database, only?: Set<string>) {
  const inScope = (control: Control) => !only || only.has(control.internal_name);
  const recorded = listState(Control, state).filter(inScope);
  const keep = new Set(recorded.filter(isTopic).map(topicKey));
  const current = (await listControls(appId, triggerPoint, undefined, { db }, db)).filter(inScope);
  const setNow = new Set(current.filter((c) => c.id !== null).map((c) => c.internal_name));
  const cleared = current
    .filter((c) => isTopic(c) && c.id !== null && !keep.has(topicKey(c)))
    .map((c) => ({
      id: c.id,
      internal_name: c.internal_name,
      trigger_point: triggerPoint,
      prompt_input_raw: "",
      metadata: { disclaimer: "" },
    }));
  // A personality or quality check recorded without an id was not set on this trigger point then (a
  // default, or Default's inherited); while it is still not set it stays so, not pinned to what it showed.
  const wanted = recorded
    .filter((c) => isTopic(c) || c.id !== null || setNow.has(c.internal_name))
    .map((c) => ({
      internal_name: c.internal_name,
      display_name: c.display_name,
      prompt_input_raw: c.prompt_input_raw,
      metadata: c.metadata,
      trigger_point: triggerPoint,
    }));
  await saveControls(appId, asInput(ControlInput, [...cleared, ...wanted]), { db });
}

/** The finetuning table back to a recorded state, through upsert_finetunings: rules not in it deleted, its rules saved (by id while they exist). */
async function restoreFinetuning(appId: number, state: unknown, db: Database) {
  const recorded = listState(Finetuning, state);
  const current = await listFinetunings(appId, undefined, db);
  const recordedIds = new Set(recorded.map((rule) => rule.id));
  const currentIds = new Set(current.map((rule) => rule.id));
  const rows = asInput(FinetuningInput, [
    ...current
      .filter((rule) => !recordedIds.has(rule.id))
      .map((rule) => ({
        id: rule.id,
        trigger_point: rule.trigger_point,
        finetuning_type: rule.finetuning_type,
        deleted: true,
      })),
    ...recorded.map((rule) => ({
      id: currentIds.has(rule.id) ? rule.id : undefined,
      trigger_point: rule.trigger_point,
      finetuning_type: rule.finetuning_type,
      pattern: rule.pattern,
      penalty: rule.penalty,
      metadata: rule.metadata,
    })),
  ]);
  await saveFinetunings(appId, rows, { db });
  return [...new Set([...current, ...recorded].map((rule) => rule.trigger_point))];
}

/**
 * A trigger point's input prompts back to a recorded state: keys not in it deleted, its prompts
 * saved by key (a key still saved is updated through that prompt's id, a missing one added).
 */
async function restoreInputPrompts(appId: number, triggerPoint: string, state: unknown, db: Database) {
  const recorded = listState(z.object({ internal_name: z.string(), prompt_input_raw: z.string() }), state);
  const keys = new Set(recorded.map((prompt) => prompt.internal_name));
  const kept = new Map<string, number>();
  for (const prompt of await listInputPrompts(appId, [triggerPoint], db)) {
    if (!keys.has(prompt.internal_name)) await deleteInputPrompt(appId, prompt.id, { db });
    else kept.set(prompt.internal_name, prompt.id);
  }
  const rows = asInput(
    InputPromptInput,
    recorded.map((prompt) => ({
      id: kept.get(prompt.internal_name),
      internal_name: prompt.internal_name,
      prompt_input_raw: prompt.prompt_input_raw,
      trigger_point: triggerPoint,
    })),
  );
  await saveInputPrompts(appId, rows, { db });
}

/** A data model back to a recorded state: fields not in it deleted, its fields saved (by id while they exist). */
async function restoreDataModel(appId: number, model: ModelType, state: unknown, db: Database) {
  const recorded = listState(ConfigDetail, state).filter((field) => field.model_type === model);
  const current = await listConfigs(appId, model, { db });
  const recordedIds = new Set(recorded.map((field) => field.id));
  const currentIds = new Set(current.map((field) => field.id));
  await deleteFields(
    appId,
    current.filter((field) => !recordedIds.has(field.id)).map((field) => field.id),
    { db },
  );
  const rows = asInput(
    ConfigDetailInput,
    recorded.map((field) => ({
      id: currentIds.has(field.id) ? field.id : undefined,
      name: field.name,
      definition: field.definition,
      field_type: field.field_type,
      group: field.group,
      model_type: model,
    })),
  );
  if (rows.length) await saveConfigDetails(appId, rows, { db });
}

/** What a restore writes, how it is recorded, and which test runs follow it (as after the kind's own save). */
interface Plan {
  change: Change;
  what: string;
  write: (db: Database) => Promise<unknown>;
  /** What queued test runs say started them (with "restored" or "reverted" after it). */
  runs?: { triggerPoints: () => string[]; trigger: string };
}

/** The state a restore writes: the one the change led to ("after"), or the one it replaced ("before": a revert). */
function planFor(entry: Entry, state: RestoreState, placeName: PlaceName): Plan {
  const { appId, target } = entry;
  const recorded = state === "before" ? entry.before : entry.after;
  switch (entry.kind as ChangeKind) {
    case "controls": {
      // What History counts as this revert's later changes is worked out the same way (writtenBy).
      const only = state === "before" ? new Set<string>(controlsTouched(entry.before, entry.after)) : undefined;
      return {
        change: controlsChange(appId, [target]),
        what: `the controls of ${placeName(target)}`,
        // A revert takes back what its change did: the other controls stay as they are now.
        write: (db) => restoreControls(appId, target, recorded, db, only),
        runs: { triggerPoints: () => [target], trigger: "controls" },
      };
    }
    case "finetuning": {
      let touched: string[] = [];
      return {
        change: finetuningChange(appId),
        what: "the AI Finetuning rules",
        write: async (db) => (touched = await restoreFinetuning(appId, recorded, db)),
        runs: { triggerPoints: () => touched, trigger: "finetuning" },
      };
    }
    case "input_prompts":
      return {
        change: inputPromptsChange(appId, [target]),
        what: `the input prompts of ${placeName(target)}`,
        write: (db) => restoreInputPrompts(appId, target, recorded, db),
        runs: { triggerPoints: () => [target], trigger: "input prompts" },
      };
    case "appearance": {
      // Always into stage, a production state included: production changes only through Push to
      // production, whose confirmation shows the test runs and asks again when stage fails questions.
      const { environment, triggerPoint } = appearanceTargetOf(target);
      return {
        change: appearanceChange(appId, "stage", triggerPoint),
        what: `the appearance of ${placeName(triggerPoint)} (stage${environment === "prod" ? ", from production's" : ""})`,
        // An appearance is never recorded as nothing (defaults fill it), so there is always one to write.
        write: (db) =>
          saveAppearance(appId, triggerPoint, "stage", stateAs(z.record(z.string(), z.unknown()), recorded), { db }),
      };
    }
    case "data_model": {
      const model = stateAs(ModelType, target);
      return {
        change: dataModelChange(appId, [model]),
        what: `the ${MODEL_NAMES[model].toLowerCase()}`,
        write: (db) => restoreDataModel(appId, model, recorded, db),
      };
    }
    default:
      throw badRequest(NOT_RESTORABLE);
  }
}

/** How a restore and a revert are said: in History, in the toast, and by the test runs they queue. */
const WORDING: Record<RestoreState, { summary: (what: string, at: Date) => string; nothing: string; runs: string }> = {
  after: {
    summary: (what, at) => `Restored ${what} to the state of ${stateDate(at)}`,
    nothing: "Nothing to restore: this is the current state already",
    runs: "restored",
  },
  before: {
    summary: (what, at) => `Reverted ${what} to the state before the change of ${stateDate(at)}`,
    nothing: "Nothing to revert: this is the current state already",
    runs: "reverted",
  },
};

/**
 * Writes a recorded change's state back, through the code its kind's own save uses, and records
 * that as a change of its own: the state the change led to ("after"), or the one before it
 * ("before", Revert this change). Answers the change recorded, or null when the thing was in that
 * state already.
 */
export async function restoreChange(entry: Entry, state: RestoreState, author: Author, deps: ApiDeps) {
  const plan = planFor(entry, state, await placeNamesOf(entry.appId, deps.db));
  const wording = WORDING[state];
  const summary = wording.summary(plan.what, entry.at);
  let recorded: number[];
  try {
    ({ recorded } = await recordChange(deps, author, { ...plan.change, summary: () => summary }, plan.write));
  } catch (error) {
    // Only two rows trading names or patterns collide like this: the state is sound, the order of writes is not.
    if (isUniqueViolation(error))
      throw badRequest(
        `${CHANGE_KIND_LABELS[entry.kind as ChangeKind]}: this state clashes with the current one; change it by hand instead`,
      );
    throw error;
  }
  if (recorded.length && plan.runs) {
    await queueRunsAfterChange(entry.appId, plan.runs.triggerPoints(), `${plan.runs.trigger} ${wording.runs}`, deps);
  }
  return { id: recorded[0] ?? null, message: recorded.length ? summary : wording.nothing };
}
