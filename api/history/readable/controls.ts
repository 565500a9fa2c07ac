import {
  AI_PERSONALITY,
  AI_PROBING_LABELS,
  AI_PROBING_TYPES,
  CONTROL_LABELS,
  QUALITY_CHECK,
  QUALITY_CHECK_FIELDS,
  TOPIC_CONTROL_TYPES,
  TOPIC_RESPONSE_LABELS,
  type ChangeLine,
} from "@contract";
import { asList, asRecord, fieldLines, listLines, text, type Field, type ListSpec } from "./lines";
import type { PlaceName } from "./places";

/** A control or a probing text as recorded: what GET /v1/controls (or …/ai_probings) answered. */
interface Recorded {
  internal_name?: unknown;
  prompt_input_raw?: unknown;
  metadata?: unknown;
}

const ofType = (state: Recorded[], type: string) => state.filter((item) => item.internal_name === type);

/** A topic is its text (as the save tells topics apart: in any case) within its list and trigger point. */
const topicSpec = (type: (typeof TOPIC_CONTROL_TYPES)[number]): ListSpec<Recorded> => ({
  key: (topic) => text(topic.prompt_input_raw).toLowerCase(),
  name: (topic) => `'${text(topic.prompt_input_raw)}'`,
  fields: [
    { label: "Topic", get: (topic) => text(topic.prompt_input_raw), inName: true },
    { label: TOPIC_RESPONSE_LABELS[type], get: (topic) => text(asRecord(topic.metadata)?.disclaimer) },
  ],
});

const qualityCheckFields: Field<Recorded>[] = QUALITY_CHECK_FIELDS.map((field) => ({
  label: field.label,
  get: (control) => asRecord(control.metadata)?.[field.name],
}));

/**
 * The controls of one trigger point: AI Personality, the two topic lists, and the Quality Check,
 * each under its screen's name. Ids and display names are left out: no screen shows them.
 */
export function controlsLines(
  triggerPoint: string,
  before: unknown,
  after: unknown,
  placeName: PlaceName,
): ChangeLine[] {
  const was = asList<Recorded>(before);
  const now = asList<Recorded>(after);
  const of = `of ${placeName(triggerPoint)}`;
  const single = (state: Recorded[], type: string) => ofType(state, type)[0];
  return [
    ...fieldLines(
      `AI Personality ${of}`,
      [{ label: CONTROL_LABELS[AI_PERSONALITY], get: (c: Recorded) => text(c.prompt_input_raw) }],
      single(was, AI_PERSONALITY),
      single(now, AI_PERSONALITY),
    ),
    ...TOPIC_CONTROL_TYPES.flatMap((type) =>
      listLines(`${CONTROL_LABELS[type]} ${of}`, topicSpec(type), ofType(was, type), ofType(now, type)),
    ),
    ...fieldLines(
      `${CONTROL_LABELS[QUALITY_CHECK]} ${of}`,
      qualityCheckFields,
      single(was, QUALITY_CHECK),
      single(now, QUALITY_CHECK),
    ),
  ];
}

/** The two texts of User Probing Guidelines of one trigger point. */
export function probingLines(
  triggerPoint: string,
  before: unknown,
  after: unknown,
  placeName: PlaceName,
): ChangeLine[] {
  const textOf = (state: unknown, type: string) => text(ofType(asList<Recorded>(state), type)[0]?.prompt_input_raw);
  const fields = AI_PROBING_TYPES.map((type) => ({
    label: AI_PROBING_LABELS[type],
    get: (state: unknown) => textOf(state, type),
  }));
  return fieldLines(`User Probing Guidelines of ${placeName(triggerPoint)}`, fields, before, after);
}
