import { asc, eq } from "drizzle-orm";
import type { Executor } from "../controls/scope";
import { integrations } from "../db/schema";
import { listChanges, listSummary } from "../history/describe";
import type { Change } from "../history/record";
import { systemNamed } from "./catalog";
import type { SecretBox } from "./secrets";

type IntegrationRow = typeof integrations.$inferSelect;

/** Settings that are secret whatever the catalogue says: what their names or titles call them. */
const SECRET_LIKE = /secret|password|passwd|token|credential|api[_ ]?key|private[_ ]?key|\bkey\b/i;

/** The settings of a system's use case that are secret: marked so in the catalogue, or named like one. */
export function secretNamesOf(externalSystem: string, usecase: string, stored: string[] = []) {
  const fields =
    systemNamed(externalSystem)?.integration_settings.find((u) => u.usecase === usecase)?.settings_json ?? [];
  return new Set([
    ...fields.filter((f) => f.secret || SECRET_LIKE.test(f.name) || SECRET_LIKE.test(f.title)).map((f) => f.name),
    ...stored.filter((name) => SECRET_LIKE.test(name)),
  ]);
}

/**
 * An integration as the history records it: what GET answers, without its save time, and with
 * every secret setting replaced by a tag that changes when the secret does, never its value nor
 * its masked tail.
 */
export function withoutSecrets(row: IntegrationRow, box: SecretBox) {
  const secret = secretNamesOf(row.externalSystem, row.usecase, Object.keys(row.settings));
  const settings: Record<string, string> = {};
  for (const [name, value] of Object.entries(row.settings)) {
    settings[name] = secret.has(name) && value ? `[secret not recorded, version ${box.fingerprint(value)}]` : value;
  }
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    usecase: row.usecase,
    external_system: row.externalSystem,
    settings_json: settings,
  };
}

export const integrationsOf = (appId: number, db: Executor) =>
  db.select().from(integrations).where(eq(integrations.appId, appId)).orderBy(asc(integrations.id));

/** The client's integrations as GET answers them, but with no trace of a secret's value (docs/decisions/024). */
export const integrationsChange = (appId: number, box: SecretBox): Change => ({
  appId,
  kind: "integration",
  targets: [""],
  read: async (_, db) => (await integrationsOf(appId, db)).map((row) => withoutSecrets(row, box)),
  summary: (_, before, after) =>
    listSummary(
      "Integrations",
      // One integration per system, use case and environment (as the save keeps them): a new name is a change.
      listChanges<{ name: string; environment: string; external_system: string; usecase: string }>(
        before,
        after,
        (i) => [i.external_system, i.usecase, i.environment].join("\u0000"),
        (i) => `${i.name} (${i.environment})`,
      ),
    ),
});
