import { z } from "zod";
import { Id, REQUIRED_STRING, requiredText, webLink } from "./common";
import { Metadata } from "./safe-strings";
import {
  CLIENT_TYPES,
  MODE_ENVS,
  AGENT_TYPES,
  COUNTRIES,
  COPY_MARKETS,
  RESERVED_URL_CODES,
  stripSiteCode,
  URL_CODE_PATTERN,
  AGENT_STATUSES,
  IMPORT_DIGEST_FORMAT,
} from "./values/apps";
export * from "./values/apps";

export const AgentSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  site_code: z.string(),
  agent_type: z.enum(AGENT_TYPES),
  logo: z.string().nullable(),
  status: z.string(),
});
export type AgentSummary = z.infer<typeof AgentSummary>;

/** A client app with every field of the spec's section 3. */
export const ClientApp = z.object({
  id: z.number().int(),
  client_name: z.string(),
  primary_website: z.string(),
  logo_url: z.string().nullable(),
  country: z.string(),
  market: z.string(),
  project_url: z.string(),
  notes: z.string(),
  url_code: z.string(),
  copy_market: z.string(),
  client_type: z.string(),
  onboard_existing_client: z.boolean(),
  trigger_points: z.array(z.string()),
  mode_env: z.string(),
  insync_prod_app_id: z.string().nullable(),
  status: z.string(),
  agents: z.array(AgentSummary),
});
export type ClientApp = z.infer<typeof ClientApp>;

export const AppsQuery = z.object({
  status: z.enum(["active", "inactive"]).optional(),
  /** Name or url_code contains this (the wire keeps the historical spelling). */
  saerch: z.string().trim().max(100).optional(),
});
export type AppsQuery = z.infer<typeof AppsQuery>;

export const AppsList = z.object({ apps: z.array(ClientApp) });
export type AppsList = z.infer<typeof AppsList>;

const trimmed = (max: number) => z.string().trim().max(max);

const MAX_TRIGGER_POINTS = 100;
const MAX_TRIGGER_POINT_LENGTH = 100;

/**
 * A client's trigger points: names the screens offer in their trigger point selectors and keep
 * settings under, so each is one line and none is listed twice (in any case: "Main" and "main"
 * would read as one in a selector).
 */
const TriggerPoints = z
  .array(
    z
      .string()
      .trim()
      .min(1, "Leave no trigger point empty")
      .max(MAX_TRIGGER_POINT_LENGTH, `Keep each trigger point to at most ${MAX_TRIGGER_POINT_LENGTH} characters`)
      .refine((point) => !/[\t\n\r]/.test(point), "Write each trigger point on one line, without tabs")
      // The client form lists trigger points in one field, separated by commas: a comma inside one
      // would part it in two on the form's next save, leaving its settings under the old name.
      .refine((point) => !point.includes(","), "Leave commas out of a trigger point: commas separate trigger points"),
  )
  .max(MAX_TRIGGER_POINTS, `Use at most ${MAX_TRIGGER_POINTS} trigger points`)
  .superRefine((points, context) => {
    const seen = new Set<string>();
    points.forEach((point, index) => {
      const key = point.toLowerCase();
      if (seen.has(key))
        context.addIssue({ code: "custom", path: [index], message: `The trigger point “${point}” is listed twice` });
      seen.add(key);
    });
  })
  .default([]);

/** The body of POST /v1/apps and PUT /v1/apps/{id}: the client form's fields. */
export const AppInput = z.object({
  client_name: requiredText(200),
  primary_website: webLink(500).default(""),
  notes: trimmed(5000).default(""),
  url_code: z
    .string({ error: REQUIRED_STRING })
    .trim()
    .toLowerCase()
    // One message for an empty code, not the pattern's too.
    .min(1, { error: "This string is required", abort: true })
    .max(63, "Use at most 63 characters")
    .regex(URL_CODE_PATTERN, "Use lower-case letters, digits and hyphens only, starting with a letter or digit")
    .refine((code) => !(RESERVED_URL_CODES as readonly string[]).includes(code), {
      message: "This url_code is used by the console itself; choose another",
    }),
  project_url: webLink(500).default(""),
  market: trimmed(200).default(""),
  logo_url: webLink(1000).nullable().optional(),
  country: z
    .enum(["", ...COUNTRIES.map((c) => c.value)] as [string, ...string[]], { error: "Choose a country from the list" })
    .default(""),
  copy_market: z
    .enum(["", ...COPY_MARKETS.map((c) => c.value)] as [string, ...string[]], {
      error: "Choose a copy market from the list",
    })
    .default(""),
  client_type: z.enum(["", ...CLIENT_TYPES], { error: "Choose a client type from the list" }).default(""),
  onboard_existing_client: z.boolean().default(true),
  trigger_points: TriggerPoints,
  mode_env: z.enum(MODE_ENVS).default("staging"),
  insync_prod_app_id: z.string().trim().max(200).nullable().optional(),
  status: z.enum(["active", "inactive"]).optional(),
});
export type AppInput = z.input<typeof AppInput>;

export const AppUpdateResult = z.object({ response: ClientApp });
export type AppUpdateResult = z.infer<typeof AppUpdateResult>;

export const UploadedFiles = z.object({ files: z.array(z.object({ url: z.string() })), message: z.string() });
export type UploadedFiles = z.infer<typeof UploadedFiles>;

export const AgentLogoUpload = z.object({ url: z.string(), message: z.string() });
export type AgentLogoUpload = z.infer<typeof AgentLogoUpload>;

export const Agent = z.object({
  id: z.number().int(),
  app_id: z.number().int(),
  name: z.string(),
  agent_type: z.enum(AGENT_TYPES),
  site_code: z.string(),
  logo: z.string().nullable(),
  url: z.string(),
  status: z.string(),
  mode_env: z.string(),
  metadata: z.record(z.string(), z.unknown()),
});
export type Agent = z.infer<typeof Agent>;

export const siteCodeInUse = (code: string) => `The site code ${code} is already used by another agent of this client`;

/** POST /v1/apps/{app_id}/agents/update_agents: updates the agent of `id`, else the client's agent of `site_code`, else creates one. */
export const AgentInput = z.object({
  id: Id.optional(),
  app_id: Id,
  name: requiredText(200),
  agent_type: z.enum(AGENT_TYPES).default("enrollment"),
  // The spec strips anything but letters and digits as the user types; the server does the same.
  site_code: z
    .string({ error: REQUIRED_STRING })
    .transform(stripSiteCode)
    .pipe(z.string().min(1, "Use at least one letter or digit").max(64)),
  logo: webLink(1000).nullable().optional(),
  url: webLink(1000).default(""),
  status: z.enum(AGENT_STATUSES).default("active"),
  mode_env: z.enum(MODE_ENVS).default("staging"),
  metadata: Metadata.default({}),
});
export type AgentInput = z.input<typeof AgentInput>;

export const ExportResult = z.object({ message: z.string(), file_name: z.string() });
export type ExportResult = z.infer<typeof ExportResult>;

export const ExportFiles = z.object({ files: z.array(z.string()) });
export type ExportFiles = z.infer<typeof ExportFiles>;

/** Longer than any name Export App gives (`{url_code}_{timestamp}.json`), shorter than file systems allow. */
const MAX_EXPORT_FILE_NAME = 200;
export const ImportBody = z.object({
  file_name: z
    .string()
    .trim()
    .min(1, "Choose a file to import")
    .max(MAX_EXPORT_FILE_NAME, `Export file names are at most ${MAX_EXPORT_FILE_NAME} characters`),
});
export const ImportResult = z.object({ message: z.string(), app: ClientApp, created: z.boolean() });
export type ImportResult = z.infer<typeof ImportResult>;

/** The most changes an import preview lists; `change_count` counts them all. */
export const IMPORT_PREVIEW_CHANGES = 50;

/** What importing a file would do to a client that exists, before anything is written. */
export const ImportPreview = z.object({
  file_name: z.string(),
  /** The client of the file's url_code as it is now, or null when the import would create it. */
  existing: z.object({ id: z.number().int(), client_name: z.string() }).nullable(),
  /** What the import would change in it, each as History would record it (the first IMPORT_PREVIEW_CHANGES). */
  changes: z.array(z.string()),
  change_count: z.number().int(),
  /**
   * A fingerprint of what the import would do (64 hex digits): the same for two previews while
   * neither the file nor what the import would replace in the client changes. A question asked from
   * one preview is still the question to ask when a later preview has the same digest.
   */
  digest: z.string().regex(IMPORT_DIGEST_FORMAT),
});
export type ImportPreview = z.infer<typeof ImportPreview>;
