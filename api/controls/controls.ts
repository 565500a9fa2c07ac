import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import {
  AI_PERSONALITY,
  CONTROL_LABELS,
  CONTROL_TYPES,
  DEFAULT_TRIGGER_POINT,
  QUALITY_CHECK,
  QualityCheckSettings,
  QUALITY_CHECK_DEFAULTS,
  TOPIC_CONTROL_TYPES,
  TOPIC_ROWS,
  type Control,
  type ControlInputParsed,
  type ControlType,
  type TopicControlType,
} from "@contract";
import { controls, controlTopics } from "../db/schema";
import type { ApiDeps } from "../deps";
import { isRecognisableTopic } from "../chat/words";
import { defaultPersonalityFor } from "./defaults";
import {
  addError,
  checkTriggerPoints,
  clientScope,
  ownAndInherited,
  repeatsOf,
  rowKey,
  saveTransaction,
  throwIfErrors,
  type Errors,
  type Executor,
  type Tx,
} from "./scope";

type SingleType = typeof AI_PERSONALITY | typeof QUALITY_CHECK;
const isTopicType = (type: string): type is TopicControlType =>
  (TOPIC_CONTROL_TYPES as readonly string[]).includes(type);

type ControlRow = typeof controls.$inferSelect;
type TopicRow = typeof controlTopics.$inferSelect;

const fromRow = (row: ControlRow | TopicRow): Control => ({
  id: row.id,
  app_id: row.appId,
  internal_name: row.internalName as ControlType,
  display_name: row.displayName,
  prompt_input_raw: row.promptInputRaw,
  trigger_point: row.triggerPoint,
  metadata: row.internalName === QUALITY_CHECK ? qualitySettingsOf(row.metadata) : row.metadata,
});

/** Stored settings over the defaults: a setting added later still has a value for old rows. */
export function qualitySettingsOf(metadata: Record<string, unknown>): QualityCheckSettings {
  const settings: Record<string, unknown> = { ...QUALITY_CHECK_DEFAULTS };
  for (const [name, field] of Object.entries(QualityCheckSettings.shape)) {
    const parsed = field.safeParse(metadata[name]);
    if (parsed.success) settings[name] = parsed.data;
  }
  return settings as QualityCheckSettings;
}

/**
 * What applies to one trigger point for a control held once per trigger point: its own row, else
 * the Default row, else the built-in default. Unsaved values answer with id null, so the screen
 * shows what the assistant uses and saving it creates the trigger point's own row.
 */
export async function singleControls(
  appId: number,
  triggerPoint: string,
  types: SingleType[],
  clientType: string,
  db: Executor,
): Promise<Control[]> {
  if (!types.length) return [];
  const rows = await db
    .select()
    .from(controls)
    .where(
      and(
        eq(controls.appId, appId),
        inArray(controls.internalName, types),
        inArray(controls.triggerPoint, [triggerPoint, DEFAULT_TRIGGER_POINT]),
      ),
    );
  return types.map((type) => {
    const { own, inherited } = ownAndInherited(rows, type, triggerPoint);
    if (own) return fromRow(own);
    const base: Control = inherited
      ? { ...fromRow(inherited), id: null, trigger_point: triggerPoint }
      : {
          id: null,
          app_id: appId,
          internal_name: type,
          display_name: CONTROL_LABELS[type],
          trigger_point: triggerPoint,
          prompt_input_raw: type === AI_PERSONALITY ? defaultPersonalityFor(clientType) : "",
          metadata: type === QUALITY_CHECK ? { ...QUALITY_CHECK_DEFAULTS } : {},
        };
    return base;
  });
}

async function topicControls(
  appId: number,
  triggerPoint: string,
  types: TopicControlType[],
  db: Executor,
): Promise<Control[]> {
  if (!types.length) return [];
  const rows = await db
    .select()
    .from(controlTopics)
    .where(
      and(
        eq(controlTopics.appId, appId),
        eq(controlTopics.triggerPoint, triggerPoint),
        inArray(controlTopics.internalName, types),
      ),
    )
    .orderBy(asc(controlTopics.id));
  return types.flatMap((type) => rows.filter((r) => r.internalName === type).map(fromRow));
}

/** GET /v1/controls: the asked types in the order given (all types by default). */
export async function listControls(
  appId: number,
  triggerPoint: string,
  types: readonly ControlType[] | undefined,
  deps: Pick<ApiDeps, "db">,
  db: Executor = deps.db,
) {
  const wanted = [...new Set(types?.length ? types : CONTROL_TYPES)];
  const { clientType } = await clientScope(appId, db);
  const singles = await singleControls(
    appId,
    triggerPoint,
    wanted.filter((t): t is SingleType => !isTopicType(t)),
    clientType,
    db,
  );
  const topics = await topicControls(appId, triggerPoint, wanted.filter(isTopicType), db);
  return wanted.flatMap((type) =>
    isTopicType(type)
      ? topics.filter((c) => c.internal_name === type)
      : singles.filter((c) => c.internal_name === type),
  );
}

const UNRECOGNISABLE_TOPIC =
  "The assistant can't recognise this topic: its words are too common to tell one question from another. Name it with the words people would ask it in";

const STALE = "This control no longer exists or belongs to another trigger point; reload the page";

async function saveSingle(
  appId: number,
  row: ControlInputParsed & { internal_name: SingleType },
  path: string,
  errors: Errors,
  tx: Tx,
) {
  const [existing] = await tx
    .select()
    .from(controls)
    .where(
      and(
        eq(controls.appId, appId),
        eq(controls.internalName, row.internal_name),
        eq(controls.triggerPoint, row.trigger_point),
      ),
    );
  if (row.id && existing?.id !== row.id) return addError(errors, `${path}.id`, STALE);
  // "Saves only when non-empty or changed": an empty personality that was never saved is not stored.
  if (!existing && row.internal_name === AI_PERSONALITY && !row.prompt_input_raw.trim()) return;
  const values = {
    displayName: row.display_name || CONTROL_LABELS[row.internal_name],
    promptInputRaw: row.prompt_input_raw,
    metadata: row.metadata,
  };
  if (existing)
    await tx
      .update(controls)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(controls.id, existing.id));
  else
    await tx
      .insert(controls)
      .values({ ...values, appId, internalName: row.internal_name, triggerPoint: row.trigger_point });
}

async function saveTopic(
  appId: number,
  row: ControlInputParsed & { internal_name: TopicControlType },
  path: string,
  errors: Errors,
  tx: Tx,
) {
  const topic = row.prompt_input_raw;
  const disclaimer = row.metadata.disclaimer;
  const sameTopic = (exceptId?: number) =>
    tx
      .select({ id: controlTopics.id })
      .from(controlTopics)
      .where(
        and(
          eq(controlTopics.appId, appId),
          eq(controlTopics.triggerPoint, row.trigger_point),
          eq(controlTopics.internalName, row.internal_name),
          sql`lower(${controlTopics.promptInputRaw}) = lower(${topic})`,
          exceptId ? ne(controlTopics.id, exceptId) : undefined,
        ),
      );
  const values = {
    displayName: row.display_name || CONTROL_LABELS[row.internal_name],
    promptInputRaw: topic,
    metadata: { disclaimer },
    updatedAt: new Date(),
  };
  if (row.id) {
    const [existing] = await tx
      .select({ id: controlTopics.id })
      .from(controlTopics)
      .where(
        and(
          eq(controlTopics.id, row.id),
          eq(controlTopics.appId, appId),
          eq(controlTopics.internalName, row.internal_name),
          eq(controlTopics.triggerPoint, row.trigger_point),
        ),
      );
    if (!existing) return addError(errors, `${path}.id`, STALE);
    // A saved row cleared of both its fields is removed from the list.
    if (!topic && !disclaimer) return void (await tx.delete(controlTopics).where(eq(controlTopics.id, row.id)));
    if ((await sameTopic(row.id)).length)
      return addError(errors, `${path}.prompt_input_raw`, "This topic is already in the list");
    await tx.update(controlTopics).set(values).where(eq(controlTopics.id, row.id));
    return;
  }
  if (!topic && !disclaimer) return; // an empty row of the 8
  // Saving the same new topic again updates it rather than listing it twice.
  const [existing] = await sameTopic();
  if (existing) await tx.update(controlTopics).set(values).where(eq(controlTopics.id, existing.id));
  else
    await tx
      .insert(controlTopics)
      .values({ ...values, appId, internalName: row.internal_name, triggerPoint: row.trigger_point });
}

/** PUT /v1/controls: every row in one transaction; any error saves nothing. */
export async function saveControls(appId: number, rows: ControlInputParsed[], deps: Pick<ApiDeps, "db">) {
  const { triggerPoints } = await clientScope(appId, deps.db);
  const errors: Errors = {};
  checkTriggerPoints(rows, triggerPoints, "controls", errors);
  // Within one save, a topic may appear once per list, and a single control once per trigger point.
  const indexed = rows.map((row, index) => ({ row, index }));
  const keyOf = ({ row }: (typeof indexed)[number]) =>
    isTopicType(row.internal_name)
      ? row.prompt_input_raw && rowKey(row.trigger_point, row.internal_name, row.prompt_input_raw.toLowerCase())
      : rowKey(row.trigger_point, row.internal_name);
  // A topic of words too common to tell a question by would be saved and never act.
  for (const { row, index } of indexed)
    if (isTopicType(row.internal_name) && row.prompt_input_raw && !isRecognisableTopic(row.prompt_input_raw))
      addError(errors, `controls.${index}.prompt_input_raw`, UNRECOGNISABLE_TOPIC);
  for (const { row, index } of repeatsOf(indexed, keyOf)) {
    if (isTopicType(row.internal_name))
      addError(errors, `controls.${index}.prompt_input_raw`, "This topic is listed twice");
    else addError(errors, `controls.${index}.internal_name`, "This control is listed twice for this trigger point");
  }
  throwIfErrors(errors);

  const touched = new Map<string, Set<ControlType>>();
  await saveTransaction(deps, "controls", async (tx) => {
    for (const [i, row] of rows.entries()) {
      (touched.get(row.trigger_point) ?? touched.set(row.trigger_point, new Set()).get(row.trigger_point)!).add(
        row.internal_name,
      );
      if (isTopicType(row.internal_name))
        await saveTopic(
          appId,
          row as ControlInputParsed & { internal_name: TopicControlType },
          `controls.${i}`,
          errors,
          tx,
        );
      else
        await saveSingle(appId, row as ControlInputParsed & { internal_name: SingleType }, `controls.${i}`, errors, tx);
    }
    await checkTopicCounts(appId, errors, tx);
    throwIfErrors(errors);
  });
  const saved: Control[] = [];
  for (const [triggerPoint, types] of touched)
    saved.push(...(await listControls(appId, triggerPoint, [...types], deps)));
  return saved;
}

async function checkTopicCounts(appId: number, errors: Errors, tx: Tx) {
  const counts = await tx
    .select({
      triggerPoint: controlTopics.triggerPoint,
      internalName: controlTopics.internalName,
      n: sql<number>`count(*)::int`,
    })
    .from(controlTopics)
    .where(eq(controlTopics.appId, appId))
    .groupBy(controlTopics.triggerPoint, controlTopics.internalName)
    // The refusals in one order at every save: a grouping gives its groups in no order of its own.
    .orderBy(asc(controlTopics.triggerPoint), asc(controlTopics.internalName));
  for (const count of counts) {
    if (Number(count.n) > TOPIC_ROWS) {
      addError(
        errors,
        "controls",
        `${CONTROL_LABELS[count.internalName as TopicControlType]} hold at most ${TOPIC_ROWS} topics per trigger point`,
      );
    }
  }
}
