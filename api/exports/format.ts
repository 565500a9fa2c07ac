import { z } from "zod";
import { AgentInput, AppInput, AppRole } from "../../contract";

export const EXPORT_FORMAT = "assistant-console/app-export";
export const EXPORT_VERSION = 1;

/**
 * The versioned export of one client and everything configured under it. Later sections are
 * added as optional keys so older files keep importing; a change that breaks that bumps the version.
 */
export const AppExportFile = z.object({
  format: z.literal(EXPORT_FORMAT, { error: "This is not an export of this console" }),
  version: z.literal(EXPORT_VERSION, { error: `Only version ${EXPORT_VERSION} exports can be imported` }),
  exported_at: z.string(),
  app: AppInput,
  agents: z.array(AgentInput.omit({ id: true, app_id: true })).default([]),
  controls: z
    .array(
      z.object({
        internal_name: z.string().min(1),
        display_name: z.string().default(""),
        prompt_input_raw: z.string().default(""),
        trigger_point: z.string().default(""),
        metadata: z.record(z.string(), z.unknown()).default({}),
      }),
    )
    .default([]),
  /** Who may use the client: accounts are matched by email and created when missing. */
  access: z
    .array(z.object({ email: z.email(), name: z.string().default(""), role: AppRole }))
    .default([]),
});
export type AppExportFile = z.output<typeof AppExportFile>;

export const EXPORTS_FOLDER = "exports";

/** url_code + UTC timestamp to the millisecond: sorts by time, says whose it is, and two exports never collide. */
export function exportFileName(urlCode: string, at = new Date()) {
  const stamp = at.toISOString().replace(/[-:]/g, "").replace("T", "-").replace(".", "-").slice(0, 19);
  return `${urlCode}_${stamp}.json`;
}

export const isExportFileName = (name: string) => /^[A-Za-z0-9][A-Za-z0-9._-]*\.json$/.test(name);
