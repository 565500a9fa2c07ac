import { and, eq } from "drizzle-orm";
import { z } from "zod";
import {
  IdParam,
  IntegrationsList,
  IntegrationsSaved,
  IntegrationsUpsertBody,
  holdsAddress,
  settingValueError,
  type Integration,
} from "@contract";
import { requireApp } from "../auth/permissions";
import { integrations } from "../db/schema";
import { recordChange } from "../history/record";
import { badRequest } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { isPrivateHost } from "../knowledge/crawl/fetcher";
import { catalogByGroup, systemNamed } from "./catalog";
import { integrationsChange, integrationsOf } from "./history-state";
import { isMasked, maskSecret, secretBoxOf, type SecretBox } from "./secrets";

const AppParams = z.object({ appId: IdParam });
type IntegrationRow = typeof integrations.$inferSelect;

/** A saved integration as answers show it: secret settings masked, never decrypted onto the wire in full. */
export function toIntegration(row: IntegrationRow, box: SecretBox): Integration {
  const usecase = systemNamed(row.externalSystem)?.integration_settings.find((u) => u.usecase === row.usecase);
  const secretNames = new Set(usecase?.settings_json.filter((f) => f.secret).map((f) => f.name) ?? []);
  const settings: Record<string, string> = {};
  for (const [name, value] of Object.entries(row.settings)) {
    settings[name] = secretNames.has(name) ? maskSecret(box.open(value)) : value;
  }
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    usecase: row.usecase,
    external_system: row.externalSystem,
    settings_json: settings,
    updated_at: row.updatedAt.toISOString(),
  };
}

export function integrationRoutes(route: RouteBuilder) {
  route({
    method: "get",
    path: "/v1/apps/:appId/integrations",
    tag: "Integrations",
    summary:
      "The systems that can be linked, by group (CRM, LMS), and this client's saved integrations with secrets masked.",
    params: AppParams,
    response: IntegrationsList,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId);
      const rows = await integrationsOf(params.appId, deps.db);
      const box = secretBoxOf(deps);
      return { configs: catalogByGroup(), integrations: rows.map((row) => toIntegration(row, box)) };
    },
  });

  route({
    method: "post",
    path: "/v1/apps/:appId/integrations/upsert",
    tag: "Integrations",
    summary:
      "Saves integrations (one per system, use case and environment; staging by default). Required settings are checked; secrets are stored encrypted and a masked value posted back leaves the stored one unchanged.",
    params: AppParams,
    body: IntegrationsUpsertBody,
    response: IntegrationsSaved,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const box = secretBoxOf(deps);
      const errors: Record<string, string[]> = {};
      const planned: { values: Omit<typeof integrations.$inferInsert, "appId">; existing: IntegrationRow | null }[] =
        [];
      const slots = new Set<string>();
      for (const [i, input] of body.integrations.entries()) {
        const at = (path: string) => `integrations.${i}.${path}`;
        const system = systemNamed(input.external_system);
        const usecase = system?.integration_settings.find((u) => u.usecase === input.usecase);
        if (!system) errors[at("external_system")] = [`No system named ${input.external_system}`];
        else if (!usecase) errors[at("usecase")] = [`${system.title} has no use case ${input.usecase}`];
        if (!system || !usecase) continue;
        // One row a system, use case and environment: a second in the same save would break the table's unique key.
        const slot = `${system.name}\n${usecase.usecase}\n${input.environment}`;
        if (slots.has(slot)) {
          errors[at("usecase")] = [`${system.title} ${usecase.usecase} (${input.environment}) appears twice`];
          continue;
        }
        slots.add(slot);
        const [existing] = await deps.db
          .select()
          .from(integrations)
          .where(
            and(
              eq(integrations.appId, params.appId),
              eq(integrations.externalSystem, system.name),
              eq(integrations.usecase, usecase.usecase),
              eq(integrations.environment, input.environment),
            ),
          );
        const known = new Set(usecase.settings_json.map((f) => f.name));
        for (const name of Object.keys(input.settings_json)) {
          if (!known.has(name)) errors[at(`settings_json.${name}`)] = [`${system.title} has no setting ${name}`];
        }
        const settings: Record<string, string> = {};
        for (const field of usecase.settings_json) {
          const posted = (input.settings_json[field.name] ?? "").trim();
          const stored = existing?.settings[field.name];
          let problem: string | null = null;
          if (field.secret) {
            // Blank, or the very mask the form showed, means "keep what is stored"; the mask with
            // something typed onto it is neither the stored value nor a new one, so it is refused
            // (and a mask with nothing stored behind it is no value: the required check says so).
            const keeps = !posted || (stored !== undefined && posted === maskSecret(box.open(stored)));
            if (keeps && stored) settings[field.name] = stored;
            else if (isMasked(posted) && stored)
              problem = `Type the whole new ${field.title}: the dots stand for the value stored, which is kept only as it is shown`;
            else if (posted && !isMasked(posted)) settings[field.name] = box.seal(posted);
          } else if (posted) {
            settings[field.name] = posted;
          }
          problem ??=
            field.required && !settings[field.name] ? `${field.title} is required` : settingValueError(field, posted);
          if (!problem && posted && !field.secret && holdsAddress(field) && isPrivateHost(new URL(posted).hostname))
            problem = `${field.title} must be an address on the internet: ${new URL(posted).hostname} is a private or local address`;
          if (problem) errors[at(`settings_json.${field.name}`)] = [problem];
        }
        planned.push({
          values: {
            name: input.name || system.title,
            externalSystem: system.name,
            usecase: usecase.usecase,
            environment: input.environment,
            settings,
          },
          existing: existing ?? null,
        });
      }
      if (Object.keys(errors).length) throw badRequest(Object.values(errors)[0][0], errors);
      await recordChange(deps, caller, integrationsChange(params.appId, box), async (db) => {
        for (const { values, existing } of planned) {
          if (existing)
            await db
              .update(integrations)
              .set({ ...values, updatedAt: new Date() })
              .where(eq(integrations.id, existing.id));
          else await db.insert(integrations).values({ ...values, appId: params.appId });
        }
      });
      const rows = await integrationsOf(params.appId, deps.db);
      const titles = planned.map((p) => systemNamed(p.values.externalSystem!)!.title);
      return { message: `Saved ${titles.join(", ")}`, integrations: rows.map((row) => toIntegration(row, box)) };
    },
  });
}
