import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import {
  AI_PERSONALITY,
  AI_PROBING_LABELS,
  AI_PROBING_TYPES,
  CONTROL_LABELS,
  DEFAULT_TRIGGER_POINT,
  QUALITY_CHECK,
  type AiProbingType,
  type ClientApp,
  type ControlInput,
  type TopicControlType,
} from "@contract";
import { z } from "zod";
import {
  EMPTY_PERSONALITY_NOT_SAVED,
  EMPTY_PROBING_NOT_SAVED,
  NOTHING_TO_SAVE,
  normalizeNewlines,
  qualityBaseline,
  type Baseline,
  personalityFieldOf,
  probingFieldOf,
  savedMessage,
  shouldSendText,
  topicChanges,
  topicFieldOf,
  topicRowsOf,
} from "~/lib/controls";
import {
  PersonalityForm,
  ProbingForm,
  QualityCheckForm,
  qualityFieldOf,
  qualitySettingsOf,
  TopicsForm,
} from "~/lib/controls.schema";
import { triggerPointName, type TriggerPointChoice } from "~/lib/trigger-points";
import { shownInPlace, type ApiClient } from "./api/client.server";
import { controlsApi } from "./api/controls-api.server";
import { requireAgentOf, requireClient, requireTriggerPoint } from "./clients.server";
import { consoleContext } from "./context.server";
import { redirectWithToast } from "./toast.server";
import { loadOrError, requireConfigure } from "./permissions.server";
import { readForm } from "./http/form-data.server";
import { textOf } from "./http/form-fields.server";
import { parseLoadedField } from "./forms.server";
import { rebaseOnStored } from "./table-kit.server";

/** What every controls screen works on: the client, the trigger point and the address to return to. */
export interface ControlsScreen {
  api: ApiClient;
  app: ClientApp;
  choice: TriggerPointChoice;
  /** The page's own address, `?trigger_point=` included, so a save comes back to the same choice. */
  backTo: string;
}

/**
 * The client (and, under /agent/, the agent) of a controls screen and the trigger point it edits.
 * Actions run without the parent loaders, so the agent is checked here too.
 */
export async function controlsScreen({
  request,
  context,
  params,
}: LoaderFunctionArgs | ActionFunctionArgs): Promise<ControlsScreen> {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const url = new URL(request.url);
  if (params.agentName !== undefined) requireAgentOf(app, url.pathname);
  return {
    api,
    app,
    choice: requireTriggerPoint(app, url.pathname, url.searchParams),
    backTo: `${url.pathname}${url.search}`,
  };
}

/** The loader data every screen shares. */
export const screenData = ({ app, choice }: ControlsScreen) => ({
  client: { id: app.id, name: app.client_name },
  choice,
});

export { loadOrError };

interface Replyable {
  reply(options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }): SubmissionResult<string[]>;
}

/**
 * An API refusal as the form's reply: each message next to the field it is about (`fieldOf` maps
 * the API's path), the rest above the form; what was typed comes back with it. So does a 503 (try
 * again in a few seconds). Server failures propagate to the error boundary.
 */
export function replyWithFieldErrors(submission: Replyable, error: unknown, fieldOf: (path: string) => string | null) {
  if (!shownInPlace(error)) throw error;
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const [path, messages] of Object.entries(error.fieldErrors)) {
    const field = fieldOf(path);
    if (field) (fieldErrors[field] ??= []).push(...messages);
    else formErrors.push(...messages);
  }
  if (!Object.keys(fieldErrors).length && !formErrors.length) formErrors.push(error.message);
  return json(submission.reply({ formErrors, fieldErrors }), error.answerInit);
}

const saved = (screen: ControlsScreen, what: string) =>
  redirectWithToast(screen.backTo, {
    type: "success",
    description: savedMessage(what, triggerPointName(screen.app, screen.choice.triggerPoint)),
  });
const nothingToSave = (screen: ControlsScreen) =>
  redirectWithToast(screen.backTo, { type: "info", description: NOTHING_TO_SAVE });

/** The save bar's button says intent=save; a post without one (Enter in some browsers) is a save too. */
async function readSave(request: Request) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (intent !== null && intent !== "save")
    throw new Response("Unknown intent", { status: 400, statusText: "Unknown intent" });
  return formData;
}

// ── Saves from a page loaded before another save ───────────────────────────────────────────────

const LoadedBaseline = z.record(z.string(), z.string());
const sameText = (_field: string, a: string, b: string) => normalizeNewlines(a) === normalizeNewlines(b);

/**
 * The posted form on top of what is stored now, field by field, by the rows tables' rule
 * (rebaseOnStored): a field this page did not change takes the stored value, so a save never
 * writes back what another tab or colleague changed since the page loaded; a field both changed,
 * differently, is a conflict said beside it. `stored` spells the fields as the form's baseline does;
 * fields it lacks (a row deleted meanwhile) keep what was posted. The page posts what it loaded as
 * `loaded` (ControlsForm); a post without it is taken as it is.
 */
function rebasedOnStored(formData: FormData, stored: Baseline) {
  const raw = formData.get("loaded");
  const loaded = typeof raw === "string" ? parseLoadedField(LoadedBaseline, raw) : null;
  if (!loaded) return { formData, conflicts: null };
  const fields = Object.keys(loaded).filter((field) => Object.hasOwn(stored, field));
  const posted = { id: "form", loaded, ...Object.fromEntries(fields.map((field) => [field, textOf(formData, field)])) };
  const {
    rows: [rebased],
    errors: [conflicts],
  } = rebaseOnStored([posted] as { id: string; loaded: Baseline }[], new Map([["form", stored]]), fields, sameText);
  if (conflicts) return { formData, conflicts };
  const next = new FormData();
  for (const [name, value] of formData) next.append(name, value);
  for (const field of fields) {
    const value = (rebased as unknown as Baseline)[field];
    // An empty field posts as nothing (an unticked checkbox does); conform reads both alike.
    if (value === "") next.delete(field);
    else next.set(field, value);
  }
  return { formData: next, conflicts: null };
}

/** A save refused because a field changed both here and elsewhere: each said beside it, everything typed kept. */
const changedBothWays = (submission: Replyable, conflicts: Record<string, string[]>) =>
  json(submission.reply({ fieldErrors: conflicts }), { status: 409 });

// ── The screens' saves ─────────────────────────────────────────────────────────────────────────

/** AI Personality: saved when non-empty or changed from what is in force now. */
export async function savePersonality(screen: ControlsScreen, request: Request) {
  await requireConfigure(screen.api, screen.app.id);
  const formData = await readSave(request);
  const submission = parseWithZod(formData, { schema: PersonalityForm });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const { api, app, choice } = screen;
  const [current] = (await controlsApi.list(api, app.id, choice.triggerPoint, [AI_PERSONALITY])).controls;
  const rebased = rebasedOnStored(formData, { prompt_input_raw: current?.prompt_input_raw ?? "" });
  if (rebased.conflicts) return changedBothWays(submission, rebased.conflicts);
  const text = normalizeNewlines(textOf(rebased.formData, "prompt_input_raw"));
  if (!shouldSendText(text, current?.prompt_input_raw ?? "")) return nothingToSave(screen);
  // The API stores an empty personality only over one of the trigger point's own (what the spec's
  // "non-empty or changed" means for a text never saved): say so, rather than that it was saved.
  if (!current?.id && !text.trim())
    return redirectWithToast(screen.backTo, { type: "info", description: EMPTY_PERSONALITY_NOT_SAVED });
  try {
    await controlsApi.save(api, app.id, [
      { internal_name: AI_PERSONALITY, prompt_input_raw: text, trigger_point: choice.triggerPoint },
    ]);
  } catch (error) {
    return replyWithFieldErrors(submission, error, personalityFieldOf);
  }
  return saved(screen, "AI Personality");
}

/** Sensitive or no-go topics: rows with text, and saved rows (emptied ones are removed by the API). */
export async function saveTopics(screen: ControlsScreen, request: Request, type: TopicControlType) {
  await requireConfigure(screen.api, screen.app.id);
  const formData = await readSave(request);
  const submission = parseWithZod(formData, { schema: TopicsForm });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const { api, app, choice } = screen;
  const stored = topicRowsOf((await controlsApi.list(api, app.id, choice.triggerPoint, [type])).controls, type);
  const rebased = rebasedOnStored(formData, storedTopicsAt(submission.value.rows, stored));
  if (rebased.conflicts) return changedBothWays(submission, rebased.conflicts);
  const rows = parseWithZod(rebased.formData, { schema: TopicsForm });
  if (rows.status !== "success") return json(submission.reply(), { status: 400 });
  const { controls, formIndexOf } = topicChanges(rows.value.rows, type, choice.triggerPoint);
  if (!controls.length) return nothingToSave(screen);
  try {
    await controlsApi.save(screen.api, screen.app.id, controls);
  } catch (error) {
    return replyWithFieldErrors(submission, error, (path) => topicFieldOf(path, formIndexOf));
  }
  return saved(screen, CONTROL_LABELS[type]);
}

/** The stored topics spelled as the posted rows' fields, each saved row by its id wherever the page has it. */
function storedTopicsAt(posted: { id?: number }[], stored: ReturnType<typeof topicRowsOf>): Baseline {
  const byId = new Map(stored.flatMap((row) => (row.id === null ? [] : [[row.id, row] as const])));
  return Object.fromEntries(
    posted.flatMap((row, index) => {
      const now = row.id === undefined ? undefined : byId.get(row.id);
      return now
        ? [
            [`rows[${index}].topic`, now.topic],
            [`rows[${index}].disclaimer`, now.disclaimer],
          ]
        : [];
    }),
  );
}

/** Hallucination Accuracy & Quality Check: checked here with the contract's rules, then by the API. */
export async function saveQualityCheck(screen: ControlsScreen, request: Request) {
  await requireConfigure(screen.api, screen.app.id);
  const formData = await readSave(request);
  const submission = parseWithZod(formData, { schema: QualityCheckForm });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const { api, app, choice } = screen;
  const [current] = (await controlsApi.list(api, app.id, choice.triggerPoint, [QUALITY_CHECK])).controls;
  const rebased = rebasedOnStored(formData, qualityBaseline(qualitySettingsOf(current)));
  if (rebased.conflicts) return changedBothWays(submission, rebased.conflicts);
  const settings = parseWithZod(rebased.formData, { schema: QualityCheckForm });
  if (settings.status !== "success") return json(submission.reply(), { status: 400 });
  const control: ControlInput = {
    internal_name: QUALITY_CHECK,
    prompt_input_raw: "",
    metadata: settings.value,
    trigger_point: choice.triggerPoint,
  };
  try {
    await controlsApi.save(screen.api, screen.app.id, [control]);
  } catch (error) {
    return replyWithFieldErrors(submission, error, qualityFieldOf);
  }
  return saved(screen, CONTROL_LABELS[QUALITY_CHECK]);
}

/** User Probing Guidelines: each text sent when non-empty or changed from what is in force now. */
export async function saveProbings(screen: ControlsScreen, request: Request) {
  await requireConfigure(screen.api, screen.app.id);
  const formData = await readSave(request);
  const submission = parseWithZod(formData, { schema: ProbingForm });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const { api, app, choice } = screen;
  const current = (await controlsApi.listProbings(api, app.id, choice.triggerPoint, AI_PROBING_TYPES)).ai_probings;
  const savedText = (type: AiProbingType) =>
    current.find((entry) => entry.internal_name === type)?.prompt_input_raw ?? "";
  const rebased = rebasedOnStored(
    formData,
    Object.fromEntries(AI_PROBING_TYPES.map((type) => [type, savedText(type)])),
  );
  if (rebased.conflicts) return changedBothWays(submission, rebased.conflicts);
  const typed = (type: AiProbingType) => normalizeNewlines(textOf(rebased.formData, type));
  // The API stores an empty text only over one of the trigger point's own: an emptied text the
  // trigger point inherits stays in force, and the toast says so rather than that it was saved.
  const ownId = (type: AiProbingType) => current.find((entry) => entry.internal_name === type)?.id ?? null;
  const keptInherited = AI_PROBING_TYPES.filter(
    (type) => ownId(type) === null && !typed(type).trim() && savedText(type).trim() !== "",
  );
  const sent = AI_PROBING_TYPES.filter(
    (type) => shouldSendText(typed(type), savedText(type)) && !keptInherited.includes(type),
  );
  if (!sent.length) {
    if (!keptInherited.length) return nothingToSave(screen);
    return redirectWithToast(screen.backTo, { type: "info", description: `Nothing saved. ${EMPTY_PROBING_NOT_SAVED}` });
  }
  try {
    await controlsApi.saveProbings(
      api,
      app.id,
      sent.map((type) => ({
        internal_name: type,
        display_name: AI_PROBING_LABELS[type],
        prompt_input_raw: typed(type),
        trigger_point: choice.triggerPoint,
      })),
    );
  } catch (error) {
    return replyWithFieldErrors(submission, error, (path) => probingFieldOf(path, sent));
  }
  if (!keptInherited.length) return saved(screen, "User Probing Guidelines");
  return redirectWithToast(screen.backTo, {
    type: "success",
    description: `${savedMessage("User Probing Guidelines", triggerPointName(screen.app, choice.triggerPoint))} ${EMPTY_PROBING_NOT_SAVED}`,
  });
}

// ── The screens' loads ─────────────────────────────────────────────────────────────────────────

/**
 * The quality check of the trigger point (the Default's or the built-in settings until saved), and
 * the evidence for its threshold; either can fail alone and says so in its own place.
 */
export async function loadQualityCheck(screen: ControlsScreen) {
  const { api, app, choice } = screen;
  const [controls, evidence] = await Promise.all([
    loadOrError(() => controlsApi.list(api, app.id, choice.triggerPoint, [QUALITY_CHECK])),
    loadOrError(() => controlsApi.thresholdEvidence(api, app.id, choice.triggerPoint)),
  ]);
  const settings = qualitySettingsOf(
    controls.data?.controls.find((control) => control.internal_name === QUALITY_CHECK),
  );
  return json({
    ...screenData(screen),
    settings,
    error: controls.error,
    evidence: evidence.data,
    evidenceError: evidence.error,
    testQuestionsHref: siblingScreen(screen.backTo, "test-questions"),
  });
}

/** Another screen beside this one under the same controls path, for the same trigger point (`?trigger_point=` kept). */
function siblingScreen(backTo: string, slug: string) {
  const url = new URL(backTo, "http://console.invalid");
  // An address ending in a slash names the same screen: its last segment is the one before the slash.
  url.pathname = url.pathname.replace(/[^/]+\/?$/, slug);
  return `${url.pathname}${url.search}`;
}

/** A topic list of the trigger point as its 8 rows (saved ones first). */
/**
 * A topic screen's rows; under an agent or another trigger point, also Default's topics, which the
 * assistant applies there too (api/controls/runtime.ts) unless the trigger point lists the same topic
 * itself, so the screen can show every topic that steers its answers and where each is edited.
 */
export async function loadTopics(screen: ControlsScreen, type: TopicControlType) {
  const { api, app, choice } = screen;
  const [own, fromDefault] = await Promise.all([
    loadOrError(() => controlsApi.list(api, app.id, choice.triggerPoint, [type])),
    choice.triggerPoint === DEFAULT_TRIGGER_POINT
      ? null
      : loadOrError(() => controlsApi.list(api, app.id, DEFAULT_TRIGGER_POINT, [type])),
  ]);
  const rows = topicRowsOf(own.data?.controls ?? [], type);
  // A topic the trigger point lists itself replaces Default's of the same topic (any case): that one does not apply here.
  const listedHere = new Set(rows.filter((row) => row.id !== null).map((row) => row.topic.toLowerCase()));
  const inherited = topicRowsOf(fromDefault?.data?.controls ?? [], type).filter(
    (row) => row.id !== null && !listedHere.has(row.topic.toLowerCase()),
  );
  return json({
    ...screenData(screen),
    rows,
    inherited: inherited.map(({ topic, disclaimer }) => ({ topic, disclaimer })),
    defaultScreen: `/${app.url_code}/controls/${type.replace(/_/g, "-")}`,
    error: own.error,
  });
}
