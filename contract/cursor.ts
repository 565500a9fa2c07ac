import { z } from "zod";

/** A cursor is at most this long: the few sort-key values of one row, encoded. */
export const CURSOR_MAX_CHARS = 300;
export const CURSOR_MESSAGE = "The cursor (after) is not valid: read the list again from its first page";

/**
 * `after`: where a list read by keyset goes on, as the previous page's `next_after` gave it. Opaque
 * to callers; the API reads it back (api/db/keyset.ts).
 */
export const Cursor = z
  .string()
  .max(CURSOR_MAX_CHARS, CURSOR_MESSAGE)
  .regex(/^[A-Za-z0-9_-]+$/, CURSOR_MESSAGE)
  .optional();
