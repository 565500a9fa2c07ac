import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import {
  ConfigDetailsBody,
  ConfigDetailsList,
  ConfigDetailsQuery,
  ConfigDetailsSaved,
  DeleteRecordBody,
  IdParam,
  ImportConfigBody,
  ImportConfigResult,
  MODEL_TYPES,
  ProgramRecordsList,
  RecommendationBuildResult,
  SuccessResult,
  type ModelType,
} from "@contract";
import { can, requireApp } from "../auth/permissions";
import { clientApps, profileFields, programRecords, recommendationBuilds } from "../db/schema";
import { dataModelChange, MODEL_NAMES } from "../history/kinds";
import { recordChange, recordChanges } from "../history/record";
import { badRequest, notFound } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { closeAbandonedBuilds, latestBuild, programFields } from "./build";
import { deleteFields, listConfigs, saveConfigDetails } from "./fields";

const AppParams = z.object({ appId: IdParam });
const BASE = "/v1/apps/:appId/personalisation_config_details";
const TAG = "Profile data models";
/** The first key of the advisory lock starting a client's build holds (the second is the client's id). */
const BUILD_START_LOCK = 4_210_520;
/** A build still queued or running after this long is taken to be lost. */
const BUILD_ABANDONED_SECONDS = 60 * 60;

export function personalisationRoutes(route: RouteBuilder) {
  route({
    method: "get",
    path: BASE,
    tag: TAG,
    summary: "The fields of the client's user-profile and program-profile data models (`model_type` for one of them).",
    params: AppParams,
    query: ConfigDetailsQuery,
    response: ConfigDetailsList,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      return { personalisation_config_details: await listConfigs(params.appId, query.model_type, deps) };
    },
  });

  route({
    method: "post",
    path: `${BASE}/create_and_update`,
    tag: TAG,
    summary:
      "Creates fields (no id) and updates fields (with id) in one transaction; names are unique per model, whatever their case.",
    params: AppParams,
    body: ConfigDetailsBody,
    response: ConfigDetailsSaved,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const rows = body.personalisation_config_details;
      const models = [...new Set(rows.map((row) => row.model_type))];
      const { result: saved } = await recordChange(deps, caller, dataModelChange(params.appId, models), (db) =>
        saveConfigDetails(params.appId, rows, { db }),
      );
      return {
        message: rows.length === 1 ? "1 field saved" : `${rows.length} fields saved`,
        personalisation_config_details: saved,
      };
    },
  });

  route({
    method: "delete",
    path: `${BASE}/delete_record`,
    tag: TAG,
    summary: "Deletes one field of a data model.",
    params: AppParams,
    body: DeleteRecordBody,
    response: SuccessResult,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const [field] = await deps.db
        .select({ modelType: profileFields.modelType })
        .from(profileFields)
        .where(and(eq(profileFields.id, body.record_id), eq(profileFields.appId, params.appId)));
      if (!field) throw notFound("Field not found");
      const change = dataModelChange(params.appId, [field.modelType as ModelType]);
      const { result: removed } = await recordChange(deps, caller, change, (db) =>
        deleteFields(params.appId, [body.record_id], { db }),
      );
      if (!removed.length) throw notFound("Field not found");
      return { success: true as const, message: `Deleted ${removed[0]}` };
    },
  });

  route({
    method: "post",
    path: `${BASE}/import_config`,
    tag: TAG,
    summary:
      "Replaces this client's data model (or both, without model_type) with a copy of another client's, in one transaction.",
    params: AppParams,
    body: ImportConfigBody,
    response: ImportConfigResult,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const [source] = await deps.db
        .select({ id: clientApps.id, name: clientApps.clientName })
        .from(clientApps)
        .where(eq(clientApps.urlCode, body.import_app_code));
      // A client the caller may not see is answered like one that does not exist.
      if (!source || !can(caller, "read", source.id)) {
        throw badRequest(`No client with the code ${body.import_app_code}`, {
          import_app_code: [`No client with the code ${body.import_app_code}`],
        });
      }
      if (source.id === params.appId)
        throw badRequest("Choose another client to import from", {
          import_app_code: ["Choose another client to import from"],
        });
      const models: ModelType[] = body.model_type ? [body.model_type] : [...MODEL_TYPES];
      const copied = await listConfigs(source.id, body.model_type, deps);
      // Importing replaces the model: an empty one would only delete this client's fields.
      if (!copied.length) {
        const what = body.model_type ? MODEL_NAMES[body.model_type].toLowerCase() : "data models";
        const message = `${source.name} has no fields in its ${what}: nothing to import, nothing was changed`;
        throw badRequest(message, { import_app_code: [message] });
      }
      await recordChanges(
        deps,
        caller,
        [dataModelChange(params.appId, models)],
        async (db) => {
          await db
            .delete(profileFields)
            .where(and(eq(profileFields.appId, params.appId), inArray(profileFields.modelType, models)));
          await db.insert(profileFields).values(
            copied.map((c) => ({
              appId: params.appId,
              modelType: c.model_type,
              name: c.name,
              definition: c.definition,
              fieldType: c.field_type,
              group: c.group,
            })),
          );
        },
        // Not the source's name: everyone who may read this client reads its History, also those
        // who may not see the other client (the answer names it to the caller, who may).
        "Import from another client",
      );
      return {
        status: "success" as const,
        message: `Imported ${copied.length} ${copied.length === 1 ? "field" : "fields"} from ${source.name}`,
        configs: await listConfigs(params.appId, body.model_type, deps),
      };
    },
  });

  route({
    method: "post",
    path: `${BASE}/recommendation_model_init`,
    tag: TAG,
    summary:
      "Starts building the recommendation model: programs found in the indexed knowledge, with the program model's fields filled. One build at a time.",
    params: AppParams,
    body: z.object({}).passthrough(),
    response: RecommendationBuildResult,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      if (!(await programFields(params.appId, deps)).length) {
        throw badRequest("Add fields to the program profile data model before building the recommendation model");
      }
      await closeAbandonedBuilds(deps, BUILD_ABANDONED_SECONDS);
      // Looked for and queued under the client's lock: callers at the same moment find the one build.
      const { running, build } = await deps.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${BUILD_START_LOCK}, ${params.appId})`);
        const [running] = await tx
          .select()
          .from(recommendationBuilds)
          .where(
            and(
              eq(recommendationBuilds.appId, params.appId),
              sql`${recommendationBuilds.state} in ('queued', 'running')`,
            ),
          );
        if (running) return { running, build: null };
        const [build] = await tx.insert(recommendationBuilds).values({ appId: params.appId }).returning();
        return { running: null, build };
      });
      if (running || !build)
        return {
          success: true as const,
          message: "The recommendation model is already being built",
          job_id: running?.jobId ?? null,
        };
      const jobId = await deps.jobs.send("recommendation-model-build", { buildId: build.id });
      await deps.db.update(recommendationBuilds).set({ jobId }).where(eq(recommendationBuilds.id, build.id));
      return {
        success: true as const,
        message: "Building the recommendation model. This might take some time.",
        job_id: jobId,
      };
    },
  });

  route({
    method: "get",
    path: `${BASE}/programs`,
    tag: TAG,
    summary: "The programs of the last recommendation model build, and that build's state and progress.",
    params: AppParams,
    response: ProgramRecordsList,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId);
      // The state first: a build that completes between the two reads then shows its own programs
      // (read after it), never the previous build's under its "completed".
      const status = await latestBuild(params.appId, deps);
      const rows = await deps.db
        .select()
        .from(programRecords)
        .where(eq(programRecords.appId, params.appId))
        // Programs of one name (found on two pages) as the build found them: without the id, PostgreSQL
        // gives them in storage order, a changed one last.
        .orderBy(asc(programRecords.name), asc(programRecords.id));
      return {
        programs: rows.map((r) => ({
          id: r.id,
          name: r.name,
          source_url: r.sourceUrl,
          values: r.values,
          evidence: r.evidence,
          built_at: r.builtAt.toISOString(),
        })),
        status,
      };
    },
  });
}
