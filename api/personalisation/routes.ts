import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import {
  ConfigDetailsBody, ConfigDetailsList, ConfigDetailsQuery, ConfigDetailsSaved, DeleteRecordBody, IdParam, ImportConfigBody, ImportConfigResult,
  ProgramRecordsList, RecommendationBuildResult, SuccessResult, type ConfigDetail, type ModelType,
} from "@contract";
import { can, requireApp } from "../auth/permissions";
import { clientApps, profileFields, programRecords, recommendationBuilds } from "../db/schema";
import type { ApiDeps } from "../deps";
import { badRequest, notFound } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { closeAbandonedBuilds, latestBuild, programFields } from "./build";

const AppParams = z.object({ appId: IdParam });
const BASE = "/v1/apps/:appId/personalisation_config_details";
const TAG = "Profile data models";
/** A build still queued or running after this long is taken to be lost. */
const BUILD_ABANDONED_SECONDS = 60 * 60;

type FieldRow = typeof profileFields.$inferSelect;
const toConfigDetail = (row: FieldRow): ConfigDetail => ({
  id: row.id, app_id: row.appId, name: row.name, definition: row.definition,
  field_type: row.fieldType as ConfigDetail["field_type"], group: row.group, model_type: row.modelType as ModelType,
});

async function listConfigs(appId: number, modelType: ModelType | undefined, deps: Pick<ApiDeps, "db">) {
  const rows = await deps.db.select().from(profileFields)
    .where(and(eq(profileFields.appId, appId), modelType ? eq(profileFields.modelType, modelType) : undefined))
    .orderBy(asc(profileFields.modelType), asc(profileFields.id));
  return rows.map(toConfigDetail);
}

export function personalisationRoutes(route: RouteBuilder) {
  route({
    method: "get", path: BASE, tag: TAG, summary: "The fields of the client's user-profile and program-profile data models (`model_type` for one of them).",
    params: AppParams, query: ConfigDetailsQuery, response: ConfigDetailsList,
    handler: async ({ params, query, caller, deps }) => {
      requireApp(caller, params.appId);
      return { personalisation_config_details: await listConfigs(params.appId, query.model_type, deps) };
    },
  });

  route({
    method: "post", path: `${BASE}/create_and_update`, tag: TAG,
    summary: "Creates fields (no id) and updates fields (with id) in one transaction; names are unique per model, whatever their case.",
    params: AppParams, body: ConfigDetailsBody, response: ConfigDetailsSaved,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const rows = body.personalisation_config_details;
      const existing = await listConfigs(params.appId, undefined, deps);
      const errors: Record<string, string[]> = {};
      const key = (model: string, name: string) => `${model}\n${name.toLowerCase()}`;
      // Names as they will be after the save: the untouched existing ones plus this request's.
      const touched = new Set(rows.map((r) => r.id).filter(Boolean));
      const taken = new Map(existing.filter((e) => !touched.has(e.id)).map((e) => [key(e.model_type, e.name), e.name]));
      rows.forEach((row, i) => {
        if (row.id && !existing.some((e) => e.id === row.id)) errors[`personalisation_config_details.${i}.id`] = ["This field no longer exists; reload the page"];
        const k = key(row.model_type, row.name);
        if (taken.has(k)) errors[`personalisation_config_details.${i}.name`] = [`A field named ${row.name} already exists in this model`];
        taken.set(k, row.name);
      });
      if (Object.keys(errors).length) throw badRequest(Object.values(errors)[0][0], errors);
      await deps.db.transaction(async (tx) => {
        for (const row of rows) {
          const values = { name: row.name, definition: row.definition, fieldType: row.field_type, group: row.group, modelType: row.model_type };
          if (row.id) await tx.update(profileFields).set({ ...values, updatedAt: new Date() }).where(and(eq(profileFields.id, row.id), eq(profileFields.appId, params.appId)));
          else await tx.insert(profileFields).values({ ...values, appId: params.appId });
        }
      });
      const saved = await listConfigs(params.appId, undefined, deps);
      return { message: rows.length === 1 ? "1 field saved" : `${rows.length} fields saved`, personalisation_config_details: saved };
    },
  });

  route({
    method: "delete", path: `${BASE}/delete_record`, tag: TAG, summary: "Deletes one field of a data model.",
    params: AppParams, body: DeleteRecordBody, response: SuccessResult,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const removed = await deps.db.delete(profileFields)
        .where(and(eq(profileFields.id, body.record_id), eq(profileFields.appId, params.appId))).returning({ name: profileFields.name });
      if (!removed.length) throw notFound("Field not found");
      return { success: true as const, message: `Deleted ${removed[0].name}` };
    },
  });

  route({
    method: "post", path: `${BASE}/import_config`, tag: TAG,
    summary: "Replaces this client's data model (or both, without model_type) with a copy of another client's, in one transaction.",
    params: AppParams, body: ImportConfigBody, response: ImportConfigResult,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const [source] = await deps.db.select({ id: clientApps.id, name: clientApps.clientName }).from(clientApps).where(eq(clientApps.urlCode, body.import_app_code));
      // A client the caller may not see is answered like one that does not exist.
      if (!source || !can(caller, "read", source.id)) {
        throw badRequest(`No client with the code ${body.import_app_code}`, { import_app_code: [`No client with the code ${body.import_app_code}`] });
      }
      if (source.id === params.appId) throw badRequest("Choose another client to import from", { import_app_code: ["Choose another client to import from"] });
      const models: ModelType[] = body.model_type ? [body.model_type] : ["user_profile", "program_profile"];
      const copied = await listConfigs(source.id, body.model_type, deps);
      await deps.db.transaction(async (tx) => {
        await tx.delete(profileFields).where(and(eq(profileFields.appId, params.appId), inArray(profileFields.modelType, models)));
        if (copied.length) {
          await tx.insert(profileFields).values(copied.map((c) => ({
            appId: params.appId, modelType: c.model_type, name: c.name, definition: c.definition, fieldType: c.field_type, group: c.group,
          })));
        }
      });
      return {
        status: "success" as const,
        message: `Imported ${copied.length} ${copied.length === 1 ? "field" : "fields"} from ${source.name}`,
        configs: await listConfigs(params.appId, body.model_type, deps),
      };
    },
  });

  route({
    method: "post", path: `${BASE}/recommendation_model_init`, tag: TAG,
    summary: "Starts building the recommendation model: programs found in the indexed knowledge, with the program model's fields filled. One build at a time.",
    params: AppParams, body: z.object({}).passthrough(), response: RecommendationBuildResult,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      if (!(await programFields(params.appId, deps)).length) {
        throw badRequest("Add fields to the program profile data model before building the recommendation model");
      }
      await closeAbandonedBuilds(deps, BUILD_ABANDONED_SECONDS);
      const [running] = await deps.db.select().from(recommendationBuilds)
        .where(and(eq(recommendationBuilds.appId, params.appId), sql`${recommendationBuilds.state} in ('queued', 'running')`));
      if (running) return { success: true as const, message: "The recommendation model is already being built", job_id: running.jobId };
      const [build] = await deps.db.insert(recommendationBuilds).values({ appId: params.appId }).returning();
      const jobId = await deps.jobs.send("recommendation-model-build", { buildId: build.id });
      await deps.db.update(recommendationBuilds).set({ jobId }).where(eq(recommendationBuilds.id, build.id));
      return { success: true as const, message: "Building the recommendation model. This might take some time.", job_id: jobId };
    },
  });

  route({
    method: "get", path: `${BASE}/programs`, tag: TAG, summary: "The programs of the last recommendation model build, and that build's state and progress.",
    params: AppParams, response: ProgramRecordsList,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId);
      const rows = await deps.db.select().from(programRecords).where(eq(programRecords.appId, params.appId)).orderBy(asc(programRecords.name));
      return {
        programs: rows.map((r) => ({ id: r.id, name: r.name, source_url: r.sourceUrl, values: r.values, evidence: r.evidence, built_at: r.builtAt.toISOString() })),
        status: await latestBuild(params.appId, deps),
      };
    },
  });
}
