import { z } from "zod";
import { blankIsAbsent, pageNumber } from "./common";
import { CHANGE_KINDS, LATER_CHANGES_CAP, MAX_HISTORY_PAGE_SIZE, RESTORE_STATES } from "./values/history";
export * from "./values/history";

export const HistoryQuery = z.object({
  kind: z.preprocess(
    blankIsAbsent,
    z.enum(CHANGE_KINDS, { error: `The kind must be one of ${CHANGE_KINDS.join(", ")}` }).optional(),
  ),
  /** Who made the change, by email address (any case). */
  user: z.preprocess(
    blankIsAbsent,
    z.string().trim().toLowerCase().max(320, "Email addresses are at most 320 characters").optional(),
  ),
  page: pageNumber(1),
  page_size: z.coerce
    .number({ error: "The page size must be a number" })
    .int("The page size must be a whole number")
    .min(1, "The page size is at least 1")
    .max(MAX_HISTORY_PAGE_SIZE, `The page size is at most ${MAX_HISTORY_PAGE_SIZE}`)
    .default(25),
});
export type HistoryQuery = z.input<typeof HistoryQuery>;

/**
 * One line of what a change did, named as the screens name things: "No-Go Topics of Admissions
 * Assistant: added 'parking permits' (Canned Response: 'Please ask campus security.')". A long
 * text (a personality, a prompt) is not quoted in the line: its differing part comes in `before`
 * and `after`, to be shown under it.
 */
export const ChangeLine = z.object({
  text: z.string(),
  before: z.string().optional(),
  after: z.string().optional(),
});
export type ChangeLine = z.infer<typeof ChangeLine>;

/**
 * One recorded change: who made it and when, what it did as readable lines (items of a list
 * matched by what they are, never by position; at most MAX_CHANGE_LINES and a last "… and N
 * more"), and the thing before and after as the API shows it (null before: it was created; null
 * after: it was removed). Integrations come without secrets.
 */
export const ConfigChange = z.object({
  id: z.number().int(),
  at: z.string(),
  user_email: z.string(),
  kind: z.enum(CHANGE_KINDS),
  summary: z.string(),
  changes: z.array(ChangeLine),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  /**
   * How many changes were made to the same thing after this one, counted up to LATER_CHANGES_CAP:
   * restoring its state writes the whole thing back, so those go too. (For a production
   * appearance, the thing written is stage's: `restores_into_stage`.)
   */
  later_changes: z.number().int(),
  /**
   * Of those, how many a revert of this change undoes: the ones that wrote some of what the revert
   * writes back. A controls revert writes back only the controls its change touched (a later
   * Quality Check change stays when a No-Go save is reverted); other kinds' reverts write the whole
   * thing, so this is `later_changes`.
   */
  later_changes_on_revert: z.number().int(),
  /**
   * A production appearance: its restore and revert write stage's appearance (production changes
   * only through Push to production), so the later changes counted for it are stage's.
   */
  restores_into_stage: z.boolean(),
});
export type ConfigChange = z.infer<typeof ConfigChange>;

/** Changes are counted up to this many; past it, `total_is_capped` (the pages still go on). */
export const HISTORY_COUNT_CAP = 10_000;
export const HistoryList = z.object({
  data: z.array(ConfigChange),
  /** The changes the filters match, counted up to HISTORY_COUNT_CAP. */
  total: z.number().int(),
  total_is_capped: z.boolean(),
});
export type HistoryList = z.infer<typeof HistoryList>;

/** A restore's body: which state of the change to write back, the one it led to unless said. */
export const HistoryRestoreBody = z.object({
  state: z.enum(RESTORE_STATES, { error: `The state must be one of ${RESTORE_STATES.join(", ")}` }).default("after"),
  /**
   * The later changes the person was shown for this change: `later_changes` for a restore,
   * `later_changes_on_revert` for a revert. When more have been made since (a colleague saved
   * meanwhile), the restore is refused rather than undoing what they were not shown.
   */
  later_changes: z
    .number({ error: "later_changes must be a whole number" })
    .int("later_changes must be a whole number")
    .min(0, "later_changes must be a whole number")
    .max(LATER_CHANGES_CAP, `later_changes goes up to ${LATER_CHANGES_CAP}`)
    .optional(),
});
export type HistoryRestoreBody = z.input<typeof HistoryRestoreBody>;

/** A restore's answer: the change it recorded (null when the thing was in that state already). */
export const HistoryRestored = z.object({ message: z.string(), id: z.number().int().nullable() });
export type HistoryRestored = z.infer<typeof HistoryRestored>;
