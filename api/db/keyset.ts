import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { CURSOR_MESSAGE } from "@contract";
import { badRequest } from "../http/errors";

/*
 * Lists read by keyset: a page goes on after the last row of the one before, by the values of the
 * sort (ties broken by id), not by an offset. No row is skipped or repeated when rows are added or
 * deleted between two pages (the row a cursor names may itself be gone), and no page recounts the
 * rows before it. The cursor is those values as JSON in base64url; it only says where to go on, so
 * it cannot widen what the list's own conditions (the client's rows) let through.
 */

/**
 * A timestamptz as exact text, microseconds and all: a JavaScript Date holds milliseconds, and a
 * cursor rounded to them would skip or repeat rows started within the same millisecond.
 */
export const exactTime = (column: SQL) => sql`to_char(${column} at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * An exact time as `exactTime` writes it, and a real one: no 30 February, and no year 0, which
 * JavaScript's calendar has and PostgreSQL's does not.
 */
export const ExactTime = z
  .string()
  .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
  .refine((text) => !text.startsWith("0000"))
  .refine((text) => {
    const date = new Date(text);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 19) === text.slice(0, 19);
  });

export const KeyUuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
export const KeyCount = z.number().int().min(0).max(2_147_483_647);

/** The cursor of the row a page ended with: its sort values. */
export const cursorOf = (values: readonly (string | number)[]) =>
  Buffer.from(JSON.stringify(values), "utf8").toString("base64url");

/** The sort values a cursor holds, as `shape` expects them; a 400 for anything else. */
export function readCursor<Shape extends z.ZodType>(cursor: string, shape: Shape): z.output<Shape> {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw badRequest(CURSOR_MESSAGE, { after: [CURSOR_MESSAGE] });
  }
  const read = shape.safeParse(values);
  if (!read.success) throw badRequest(CURSOR_MESSAGE, { after: [CURSOR_MESSAGE] });
  return read.data;
}
