import { z } from "zod";
import { AGENT_STATUSES, AGENT_TYPES, MODE_ENVS } from "@contract/values/apps";
import { stripSiteCode } from "./agent-form";

/*
 * The build-agent form's schema, apart from agent-form.ts so that zod reaches the browser only
 * when a form needs it: the server imports it, the form loads it on first use
 * (~/lib/use-schema-on-first-use).
 */

const text = () => z.string().trim().default("");

/**
 * The build-agent form as posted (multipart: the logo file travels with it). The spec shows no
 * required-field messages; the API's refusals come back next to their fields. agent_type and
 * mode_env are read-only on screen: the server takes them from the agent being edited.
 */
export const AgentForm = z.object({
  id: z.number().int().positive().optional(),
  name: text(),
  agent_type: z.enum(AGENT_TYPES).default("enrollment"),
  site_code: z.string().default("").transform(stripSiteCode),
  logo: z.file().optional(),
  /** The current logo's URL (kept when no new file is chosen, and across a refused save). */
  logo_url: text(),
  url: text(),
  status: z.enum(AGENT_STATUSES).default("active"),
  mode_env: z.enum(MODE_ENVS).default("staging"),
});
export type AgentFormValue = z.output<typeof AgentForm>;
