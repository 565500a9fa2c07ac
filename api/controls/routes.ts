import { z } from "zod";
import {
  AiProbingsBody,
  AiProbingsList,
  AiProbingsQuery,
  AiProbingsSaved,
  BulkDeleteFinetuningsBody,
  ControlsList,
  ControlsPutBody,
  ControlsPutQuery,
  ControlsQuery,
  ControlsSaved,
  DeletedResult,
  FinetuningsList,
  FinetuningsQuery,
  FinetuningsSaved,
  FinetuningsUpsertBody,
  IdParam,
  INPUT_PROMPT_MESSAGES,
  InputPromptsBody,
  InputPromptsList,
  InputPromptsQuery,
  InputPromptsSaved,
  OkResult,
} from "@contract";
import { requireApp } from "../auth/permissions";
import type { RouteBuilder } from "../http/route";
import { listControls, saveControls } from "./controls";
import { deleteFinetunings, listFinetunings, saveFinetunings } from "./finetunings";
import { deleteInputPrompt, listInputPrompts, saveInputPrompts, triggerPointOfPrompt } from "./input-prompts";
import { listProbings, saveProbings } from "./probings";
import { clientScope, resolveAppId } from "./scope";
import { queueRunsAfterChange } from "../testing/auto-runs";
import { controlsChange, finetuningChange, inputPromptsChange, probingChange } from "../history/kinds";
import { recordChange } from "../history/record";

const AppParams = z.object({ appId: IdParam });
const TAG = "Controls";

/**
 * The spec's section 7 "Controls, probing, prompts, finetuning", path for path. Everyone with a
 * role in the client reads; saving needs the configure capability (client_user ⇒ 403), and a
 * client the caller cannot see is 404.
 */
export function controlRoutes(route: RouteBuilder) {
  route({
    method: "get",
    path: "/v1/controls",
    tag: TAG,
    summary:
      "Controls of one trigger point: AI personality, sensitive and no-go topics, quality check (`types` narrows them). Unsaved personality and quality check answer their defaults with id null.",
    query: ControlsQuery,
    response: ControlsList,
    handler: async ({ query, caller, deps }) => {
      requireApp(caller, query.app_id);
      return { controls: await listControls(query.app_id, query.trigger_point, query.types, deps) };
    },
  });

  route({
    method: "put",
    path: "/v1/controls",
    tag: TAG,
    summary:
      "Saves controls in one transaction (app_id in the body or the query). Topic rows with an id update it, or delete it when cleared; new ones are upserted by topic; at most 8 per list and trigger point.",
    query: ControlsPutQuery,
    body: ControlsPutBody,
    response: ControlsSaved,
    handler: async ({ query, body, caller, deps }) => {
      const appId = resolveAppId(caller, {
        query: query.app_id,
        body: body.app_id,
        rows: body.controls,
        listKey: "controls",
      });
      const { result: controls } = await recordChange(
        deps,
        caller,
        controlsChange(appId, triggerPointsOf(body.controls)),
        (db) => saveControls(appId, body.controls, { db }),
      );
      await queueRunsAfterChange(appId, triggerPointsOf(body.controls), "controls saved", deps);
      return { message: "Controls saved", controls };
    },
  });

  route({
    method: "get",
    path: "/v1/apps/:appId/ai_probings",
    tag: TAG,
    summary:
      "Smart probing texts of one trigger point (topics, topic_to_prob_mapping), one entry per type; id null when not saved.",
    params: AppParams,
    query: AiProbingsQuery,
    response: AiProbingsList,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      await clientScope(params.appId, deps.db);
      return { ai_probings: await listProbings(params.appId, query.trigger_point, query.types, deps.db) };
    },
  });

  route({
    method: "put",
    path: "/v1/apps/:appId/ai_probings",
    tag: TAG,
    summary: "Saves smart probing texts, upserted by trigger point and type, in one transaction.",
    params: AppParams,
    body: AiProbingsBody,
    response: AiProbingsSaved,
    handler: async ({ params, body, caller, deps }) => {
      const appId = resolveAppId(caller, {
        query: params.appId,
        body: body.app_id,
        rows: body.ai_probings,
        listKey: "ai_probings",
      });
      const { result } = await recordChange(
        deps,
        caller,
        probingChange(appId, triggerPointsOf(body.ai_probings)),
        (db) => saveProbings(appId, body.ai_probings, { db }),
      );
      return { message: "Probing guidelines saved", ai_probings: result };
    },
  });

  route({
    method: "get",
    path: "/v1/apps/:appId/input_prompts",
    tag: TAG,
    summary: "Input prompts of one trigger point.",
    params: AppParams,
    query: InputPromptsQuery,
    response: InputPromptsList,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      await clientScope(params.appId, deps.db);
      return { input_prompts: await listInputPrompts(params.appId, [query.trigger_point], deps.db) };
    },
  });

  route({
    method: "put",
    path: "/v1/apps/:appId/input_prompts",
    tag: TAG,
    summary:
      "Saves input prompts (Prompt Key and Prompt both required; blank rows ignored) in one transaction: rows with an id update that prompt, rows without one add a prompt; a key already used under the trigger point is refused.",
    params: AppParams,
    body: InputPromptsBody,
    response: InputPromptsSaved,
    handler: async ({ params, body, caller, deps }) => {
      const appId = resolveAppId(caller, { query: params.appId, rows: [], listKey: "input_prompts" });
      const change = inputPromptsChange(appId, triggerPointsOf(body.input_prompts));
      const { result: inputPrompts } = await recordChange(deps, caller, change, (db) =>
        saveInputPrompts(appId, body.input_prompts, { db }),
      );
      await queueRunsAfterChange(appId, triggerPointsOf(body.input_prompts), "input prompts saved", deps);
      return { message: INPUT_PROMPT_MESSAGES.saved, input_prompts: inputPrompts };
    },
  });

  route({
    method: "delete",
    path: "/v1/apps/:appId/input_prompts/:id",
    tag: TAG,
    summary: "Deletes one input prompt.",
    params: z.object({ appId: IdParam, id: IdParam }),
    response: OkResult,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      // The delete is recorded against the prompt's trigger point (none: the delete answers 404).
      const triggerPoint = await triggerPointOfPrompt(params.appId, params.id, deps.db);
      const change = inputPromptsChange(params.appId, triggerPoint === null ? [] : [triggerPoint]);
      const { result: prompt } = await recordChange(deps, caller, change, (db) =>
        deleteInputPrompt(params.appId, params.id, { db }),
      );
      await queueRunsAfterChange(params.appId, [prompt.trigger_point], "input prompt deleted", deps);
      return { message: `Deleted the prompt ${prompt.internal_name}` };
    },
  });

  route({
    method: "get",
    path: "/v1/controls/list_finetunings",
    tag: TAG,
    summary: "The client's AI Finetuning rules of every type (and every site unless `trigger_point` is given).",
    query: FinetuningsQuery,
    response: FinetuningsList,
    handler: async ({ query, caller, deps }) => {
      requireApp(caller, query.app_id);
      await clientScope(query.app_id, deps.db);
      return { finetunings: await listFinetunings(query.app_id, query.trigger_point, deps.db) };
    },
  });

  route({
    method: "post",
    path: "/v1/controls/upsert_finetunings",
    tag: TAG,
    summary:
      "Saves AI Finetuning rows in one transaction: blank rows ignored, rows marked deleted removed, new rows matching a saved rule update it. Answers every rule of the client.",
    body: FinetuningsUpsertBody,
    response: FinetuningsSaved,
    handler: async ({ body, caller, deps }) => {
      const rows = body.finetunings.map((row) => row ?? {});
      const appId = resolveAppId(caller, { body: body.app_id, rows, listKey: "finetunings" });
      const { result } = await recordChange(deps, caller, finetuningChange(appId), (db) =>
        saveFinetunings(appId, body.finetunings, { db }),
      );
      await queueRunsAfterChange(appId, triggerPointsOf(rows), "finetuning saved", deps);
      return { message: "Finetuning saved", ...result };
    },
  });

  route({
    method: "delete",
    path: "/v1/controls/bulk_delete_finetunings",
    tag: TAG,
    summary: "Deletes AI Finetuning rules of the client by id (ids of other clients are left alone).",
    body: BulkDeleteFinetuningsBody,
    response: DeletedResult,
    handler: async ({ body, caller, deps }) => {
      requireApp(caller, body.app_id, "configure");
      const { result: deleted } = await recordChange(deps, caller, finetuningChange(body.app_id), (db) =>
        deleteFinetunings(body.app_id, [...new Set(body.ids)], { db }),
      );
      if (deleted) await queueRunsAfterChange(body.app_id, "every agent", "finetuning deleted", deps);
      return { message: `Deleted ${deleted} rule${deleted === 1 ? "" : "s"}`, deleted };
    },
  });
}

/** The trigger points a save touched (a row without one is Default's). */
function triggerPointsOf(rows: { trigger_point?: string | null }[]) {
  return [...new Set(rows.map((row) => row.trigger_point ?? ""))];
}
