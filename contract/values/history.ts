/** The history contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/history.ts). */

/** What a recorded configuration change is about. */
export const CHANGE_KINDS = [
  "controls",
  "finetuning",
  "input_prompts",
  "appearance",
  "data_model",
  "smart_probing",
  "integration",
  "website",
  "agent",
  "user_access",
  "file",
  "client",
  "test_questions",
  "urls",
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * The kinds whose recorded states can be written back. The others are left out on purpose
 * (docs/decisions/024-configuration-history.md): an integration's state is recorded without its
 * secrets, and websites, agents and access are things people add and remove, where writing an old
 * state back would undo other people's work or re-crawl a site. A file's bytes are not kept in
 * the history, so a removed file cannot come back from it. Test questions are added and edited by
 * several people, one by one: writing a trigger point's old list back would undo everyone's work
 * since. The client profile holds the client's trigger points, which its agents, controls and
 * test questions hang on: it is changed on its own form, not from History. URL work (pages asked
 * to be indexed, skipped or deleted, added by hand, given refresh days) is a request the pipeline
 * carries out, recorded so that people see who asked for it: there is no state to write back.
 */
export const RESTORABLE_CHANGE_KINDS = [
  "controls",
  "finetuning",
  "input_prompts",
  "appearance",
  "data_model",
] as const satisfies readonly ChangeKind[];

export const CHANGE_KIND_LABELS: Record<ChangeKind, string> = {
  controls: "Controls",
  finetuning: "AI Finetuning",
  input_prompts: "Input Prompts",
  appearance: "Appearance",
  data_model: "Data model",
  smart_probing: "Smart Probing",
  integration: "Integrations",
  website: "Websites",
  agent: "Agents",
  user_access: "Users and access",
  file: "Files",
  client: "Client Profile",
  test_questions: "Test Questions",
  urls: "URLs",
};

export const isRestorableKind = (kind: string) => (RESTORABLE_CHANGE_KINDS as readonly string[]).includes(kind);

export const NOT_RESTORABLE = "This kind of change cannot be restored or reverted";

/**
 * Which recorded state a restore writes back: "after" (Restore this state) puts back what the
 * change led to, "before" (Revert this change) what it replaced.
 */
export const RESTORE_STATES = ["before", "after"] as const;
export type RestoreState = (typeof RESTORE_STATES)[number];

/** A change lists at most this many readable lines; the rest are counted in a last "… and N more". */
export const MAX_CHANGE_LINES = 20;

/** The longest history page. */
export const MAX_HISTORY_PAGE_SIZE = 100;

/** A History entry's later changes to the same thing are counted up to this many (`later_changes`). */
export const LATER_CHANGES_CAP = 100;
