import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { FieldType, INTEGRATION_ENVIRONMENTS, ModelType, PROFILE_GROUPS } from "@contract";
import { appearances, integrations, profileFields } from "../db/schema";
import type { Executor } from "../controls/scope";
import type { ApiDeps } from "../deps";
import { systemNamed } from "../integrations/catalog";

/** The profile data models' fields, both models (optional: older exports have none). */
export const ProfileFieldsSection = z
  .array(
    z.object({
      name: z.string().trim().min(1).max(100),
      definition: z.string().default(""),
      field_type: FieldType,
      group: z.enum(PROFILE_GROUPS).or(z.literal("")).default(""),
      model_type: ModelType,
    }),
  )
  .default([]);

/**
 * Integrations without their secrets: settings that are keys, tokens or passwords are left out of
 * the file, so an import links the system and the secrets are typed again on the new side.
 */
export const IntegrationsSection = z
  .array(
    z.object({
      name: z.string().default(""),
      external_system: z.string().min(1),
      usecase: z.string().min(1),
      environment: z.enum(INTEGRATION_ENVIRONMENTS).default("staging"),
      settings: z.record(z.string(), z.string()).default({}),
    }),
  )
  .default([]);

const secretNamesOf = (system: string, usecase: string) =>
  new Set(
    systemNamed(system)
      ?.integration_settings.find((u) => u.usecase === usecase)
      ?.settings_json.filter((f) => f.secret)
      .map((f) => f.name) ?? [],
  );

/** Widget appearances, stage and production, per trigger point (optional). */
export const AppearancesSection = z
  .array(
    z.object({
      trigger_point: z.string().default(""),
      environment: z.enum(["stage", "prod"]),
      values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
    }),
  )
  .default([]);

export async function exportProfileSections(appId: number, deps: Pick<ApiDeps, "db">) {
  const looks = await deps.db
    .select()
    .from(appearances)
    .where(eq(appearances.appId, appId))
    .orderBy(asc(appearances.id));
  const fields = await deps.db
    .select()
    .from(profileFields)
    .where(eq(profileFields.appId, appId))
    .orderBy(asc(profileFields.modelType), asc(profileFields.id));
  const links = await deps.db
    .select()
    .from(integrations)
    .where(eq(integrations.appId, appId))
    .orderBy(asc(integrations.id));
  return {
    appearances: looks.map((a) => ({
      trigger_point: a.triggerPoint,
      environment: a.environment as "stage" | "prod",
      values: a.values,
    })),
    profile_fields: fields.map((f) => ({
      name: f.name,
      definition: f.definition,
      field_type: f.fieldType as z.infer<typeof FieldType>,
      group: f.group as z.output<typeof ProfileFieldsSection>[number]["group"],
      model_type: f.modelType as z.infer<typeof ModelType>,
    })),
    integrations: links.map((link) => {
      const secrets = secretNamesOf(link.externalSystem, link.usecase);
      return {
        name: link.name,
        external_system: link.externalSystem,
        usecase: link.usecase,
        environment: link.environment as (typeof INTEGRATION_ENVIRONMENTS)[number],
        settings: Object.fromEntries(Object.entries(link.settings).filter(([name]) => !secrets.has(name))),
      };
    }),
  };
}

/** Upserts appearances by trigger point and environment, fields by model and name (any case) and integrations by system, use case and environment; stored secrets stay. */
export async function importProfileSections(
  appId: number,
  file: {
    profile_fields: z.output<typeof ProfileFieldsSection>;
    integrations: z.output<typeof IntegrationsSection>;
    appearances: z.output<typeof AppearancesSection>;
  },
  tx: Executor,
) {
  for (const look of file.appearances) {
    // An import is not a push: production keeps the time it was really pushed, or, new here, has
    // none (pushed_at is left alone).
    await tx
      .insert(appearances)
      .values({ appId, triggerPoint: look.trigger_point, environment: look.environment, values: look.values })
      .onConflictDoUpdate({
        target: [appearances.appId, appearances.triggerPoint, appearances.environment],
        set: { values: look.values, updatedAt: new Date() },
      });
  }
  for (const field of file.profile_fields) {
    const values = {
      name: field.name,
      definition: field.definition,
      fieldType: field.field_type,
      group: field.group,
      modelType: field.model_type,
    };
    const [same] = await tx
      .select({ id: profileFields.id })
      .from(profileFields)
      .where(
        and(
          eq(profileFields.appId, appId),
          eq(profileFields.modelType, field.model_type),
          sql`lower(${profileFields.name}) = ${field.name.toLowerCase()}`,
        ),
      );
    if (same)
      await tx
        .update(profileFields)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(profileFields.id, same.id));
    else await tx.insert(profileFields).values({ ...values, appId });
  }
  for (const link of file.integrations) {
    if (!systemNamed(link.external_system)) continue;
    const secrets = secretNamesOf(link.external_system, link.usecase);
    const settings = Object.fromEntries(Object.entries(link.settings).filter(([name]) => !secrets.has(name)));
    const [same] = await tx
      .select()
      .from(integrations)
      .where(
        and(
          eq(integrations.appId, appId),
          eq(integrations.externalSystem, link.external_system),
          eq(integrations.usecase, link.usecase),
          eq(integrations.environment, link.environment),
        ),
      );
    if (same) {
      const kept = Object.fromEntries(Object.entries(same.settings).filter(([name]) => secrets.has(name)));
      await tx
        .update(integrations)
        .set({ name: link.name, settings: { ...settings, ...kept }, updatedAt: new Date() })
        .where(eq(integrations.id, same.id));
    } else {
      await tx.insert(integrations).values({
        appId,
        name: link.name,
        externalSystem: link.external_system,
        usecase: link.usecase,
        environment: link.environment,
        settings,
      });
    }
  }
}
