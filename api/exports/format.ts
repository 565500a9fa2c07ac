import { z } from "zod";
import {
  AgentInput,
  AiProbingType,
  AppInput,
  AppRole,
  CleanupMetadata,
  CONTROL_LABELS,
  DEFAULT_TRIGGER_POINT,
  emailAddress,
  FileTag,
  FinetuningType,
  Id,
  isPenaltyType,
  Metadata,
  TOPIC_CONTROL_TYPES,
  TOPIC_ROWS,
} from "@contract";
import { AppearancesSection, IntegrationsSection, ProfileFieldsSection } from "./profile-sections";
import { TestQuestionsSection, WebsitesSection } from "./knowledge-sections";
import { fileStamp } from "../storage/file-stamp";

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
  agents: z
    .array(
      AgentInput.omit({ id: true, app_id: true }).extend({
        /**
         * Which agent it was: its id and when it was created, which an import into the same client
         * matches before the site code, so an agent renamed since is updated, not added again.
         * Older exports have neither.
         */
        id: Id.optional(),
        created_at: z.string().max(64).optional(),
      }),
    )
    .default([])
    // Agents are matched by id and site code on import: two of one (a code in any case) would silently become one.
    .superRefine((agents, ctx) => {
      const seen = new Set<string>();
      const ids = new Set<number>();
      agents.forEach((agent, i) => {
        const code = agent.site_code.toLowerCase();
        if (seen.has(code))
          ctx.addIssue({
            code: "custom",
            path: [i, "site_code"],
            message: "Another agent of this file has this site code",
          });
        seen.add(code);
        if (agent.id !== undefined && ids.has(agent.id))
          ctx.addIssue({ code: "custom", path: [i, "id"], message: "Another agent of this file has this id" });
        if (agent.id !== undefined) ids.add(agent.id);
      });
    }),
  controls: z
    .array(
      z.object({
        internal_name: z.string().min(1),
        display_name: z.string().default(""),
        prompt_input_raw: z.string().default(""),
        trigger_point: z.string().default(""),
        metadata: Metadata.default({}),
      }),
    )
    .default([])
    // Topic rows (sensitive and no-go topics) are several per name: the lists' limits hold here too.
    .superRefine((rows, ctx) => {
      const groups = new Map<string, Set<string>>();
      rows.forEach((row, i) => {
        if (!(TOPIC_CONTROL_TYPES as readonly string[]).includes(row.internal_name)) return;
        const key = `${row.trigger_point}\u0000${row.internal_name}`;
        const topics = groups.get(key) ?? groups.set(key, new Set()).get(key)!;
        const topic = row.prompt_input_raw.trim().toLowerCase();
        if (!topic)
          ctx.addIssue({ code: "custom", path: [i, "prompt_input_raw"], message: "A topic row needs its topic" });
        else if (topics.has(topic))
          ctx.addIssue({ code: "custom", path: [i, "prompt_input_raw"], message: "This topic is listed twice" });
        topics.add(topic);
        if (topics.size > TOPIC_ROWS) {
          ctx.addIssue({
            code: "custom",
            path: [i],
            message: `${CONTROL_LABELS[row.internal_name as (typeof TOPIC_CONTROL_TYPES)[number]]} hold at most ${TOPIC_ROWS} topics per trigger point`,
          });
        }
      });
    }),
  /** Who may use the client: accounts are matched by email and created when missing. */
  access: z
    .array(z.object({ email: emailAddress(z.string().trim()), name: z.string().default(""), role: AppRole }))
    .default([]),
  /**
   * Uploaded files' metadata and tags, never their bytes: an import adds these tags to the files of
   * the same name the client already has (taking none away) and creates no file (their content
   * must be uploaded).
   */
  files: z
    .array(
      z.object({
        // Composed, as uploads store names: an export written elsewhere may hold them decomposed.
        file_name: z
          .string()
          .min(1)
          .transform((name) => name.normalize("NFC")),
        tags: z.array(FileTag).default([]),
        status: z.string().default(""),
        size: z.number().int().nullable().default(null),
        page_count: z.number().int().nullable().default(null),
        title: z.string().default(""),
        added_by: z.string().nullable().default(null),
        uploaded_at: z.string().nullable().default(null),
      }),
    )
    .default([]),
  /** Smart probing texts, per trigger point (added after version 1 was first written; optional). */
  ai_probings: z
    .array(
      z.object({
        internal_name: AiProbingType,
        display_name: z.string().default(""),
        prompt_input_raw: z.string().default(""),
        trigger_point: z.string().default(""),
      }),
    )
    .default([]),
  /** Input prompts by key, per trigger point (optional). */
  input_prompts: z
    .array(
      z.object({
        internal_name: z.string().trim().min(1).max(100),
        prompt_input_raw: z.string().default(""),
        trigger_point: z.string().default(""),
      }),
    )
    .default([]),
  /** AI Finetuning rules (optional). */
  finetunings: z
    .array(
      z
        .object({
          trigger_point: z.string().default(""),
          finetuning_type: FinetuningType,
          pattern: z.string().default(""),
          penalty: z.number().min(0).max(1).nullable().default(null),
          metadata: Metadata.default({}),
        })
        .superRefine((rule, ctx) => {
          if (isPenaltyType(rule.finetuning_type)) {
            if (rule.penalty === null)
              ctx.addIssue({ code: "custom", path: ["penalty"], message: "A weightage rule needs its penalty" });
            if (!rule.pattern)
              ctx.addIssue({ code: "custom", path: ["pattern"], message: "A weightage rule needs its pattern" });
            return;
          }
          if (rule.trigger_point !== DEFAULT_TRIGGER_POINT)
            ctx.addIssue({ code: "custom", path: ["trigger_point"], message: "Clean-up rules belong to Default" });
          const parsed = CleanupMetadata.safeParse(rule.metadata);
          if (!parsed.success)
            ctx.addIssue({ code: "custom", path: ["metadata"], message: parsed.error.issues[0].message });
        }),
    )
    .default([]),
  /** Widget appearances, stage and production (optional). */
  appearances: AppearancesSection,
  /** Both profile data models' fields (optional). */
  profile_fields: ProfileFieldsSection,
  /** Linked CRM and LMS systems, secrets left out (optional). */
  integrations: IntegrationsSection,
  /** The knowledge store's websites as set, crawled again on import (optional). */
  websites: WebsitesSection,
  /** Each agent's test questions (optional). */
  test_questions: TestQuestionsSection,
});
export type AppExportFile = z.output<typeof AppExportFile>;

export const EXPORTS_FOLDER = "exports";

/** url_code + UTC timestamp to the millisecond: sorts by time, says whose it is, and two exports never collide. */
export function exportFileName(urlCode: string, at = new Date()) {
  return `${urlCode}_${fileStamp(at)}.json`;
}

export const isExportFileName = (name: string) => /^[A-Za-z0-9][A-Za-z0-9._-]*\.json$/.test(name);
