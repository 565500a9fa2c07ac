import { z } from "zod";
import { MAX_ID, MAX_PAGE, MAX_URL_LENGTH } from "./values/common";
import { blankIfInvisible } from "./text";
// Every schema of the contract words its refusals plainly, in the API and in the browser alike.
import "./plain-messages";
export * from "./values/common";

/** Every non-2xx answer of the API has this body. `errors` maps a field path to its messages. */
export const ErrorBody = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
/**
 * An id in a path or a query: its decimal digits alone, so `1e3`, `0x1`, `01` and `1.0` are not
 * other spellings of an id that a cache, a log or a link would count apart. Ids are Postgres integers.
 */
export const IdParam = z.coerce
  .string()
  .regex(/^[1-9][0-9]*$/, "Not a valid id")
  .transform(Number)
  .pipe(z.number().int().positive().max(MAX_ID, "Not a valid id"));
const pageFrom = (first: 0 | 1) =>
  z.coerce
    .number()
    .int()
    .min(first)
    .max(MAX_PAGE, `Pages go up to ${MAX_PAGE.toLocaleString("en")}`);
/** A page number of a list query (the first page is `first`: 1, or 0 for URL lists). */
export const pageNumber = (first: 0 | 1) => pageFrom(first).default(first);
/** A page number (from 1) of a list that answers every row when it is left out. */
export const optionalPageNumber = () => pageFrom(1).optional();
/** How many rows a page of such a list holds, at most `max` (`rows` names them in the refusal). */
export const optionalPageSize = (max: number, rows: string) =>
  z.coerce.number().int().min(1).max(max, `At most ${max} ${rows} a page`).optional();
/** An id inside a JSON body. */
export const Id = z.number().int().positive().max(MAX_ID, "Not a valid id");

/** A string schema's own word for a missing value only: its checks keep theirs (a schema-wide `error` would word them all). */
export const REQUIRED_STRING = (issue: { code: string }) =>
  issue.code === "invalid_type" ? "This string is required" : undefined;

/** A text that must be there: trimmed, showing something, at most `max` characters. */
export const requiredText = (max: number) =>
  z.string({ error: REQUIRED_STRING }).trim().overwrite(blankIfInvisible).min(1, "This string is required").max(max);

/** Longer URLs than any real page has; PostgreSQL indexes cannot hold much longer ones either. */
export const URL_TOO_LONG = `Keep web addresses to at most ${MAX_URL_LENGTH.toLocaleString("en")} characters`;

/**
 * A link the console or the widget shows or follows: an http(s) address, a bare host name, or a
 * path of this server (`/storage/public/…`). Never `javascript:`, `data:` or a protocol-relative `//host`.
 */
export function isWebLink(value: string) {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return false;
  if (value.startsWith("/")) return !value.startsWith("//");
  // A bare host name ("www.northfield.edu/apply"), as people type websites: no scheme to abuse.
  if (!/^[a-z][a-z0-9+.-]*:/i.test(value)) return /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+([/?#]\S*)?$/.test(value);
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && Boolean(url.hostname);
  } catch {
    return false;
  }
}

/** Addresses are stored, listed and shown: a user name or password written into one would be shown with it. */
export const CREDENTIALS_IN_ADDRESS = "Leave the user name and password out of the address";

/** True unless the address carries a user name or password (`https://user:secret@host/`). */
export function hasNoCredentials(value: string) {
  try {
    const url = new URL(value);
    return url.username === "" && url.password === "";
  } catch {
    return true;
  }
}

/** An optional web link field: empty, or what isWebLink accepts. */
export const webLink = (max = MAX_URL_LENGTH) =>
  z
    .string()
    .trim()
    .max(max, URL_TOO_LONG)
    .refine((value) => value === "" || isWebLink(value), "Use a web address starting with http:// or https://");

/** A query value left empty by a form's blank choice ("any kind", "any outcome") means no filter. */
export const blankIsAbsent = (value: unknown) => (value === "" ? undefined : value);

/** A calendar day: JavaScript reads 2026-02-30 as March 2, which PostgreSQL refuses, so the day must read back as written. */
// JavaScript's dates have a year 0, PostgreSQL's do not (1 BC comes before 1 AD).
export const FIRST_DAY = "0001-01-01";
const isCalendarDay = (day: string) => {
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && day >= FIRST_DAY && new Date(time).toISOString().slice(0, 10) === day;
};
/** A UTC day as YYYY-MM-DD, a real one. */
export const IsoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Dates are YYYY-MM-DD")
  .refine(isCalendarDay, "Not a date");
