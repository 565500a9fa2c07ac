import { z } from "zod";
import { CLIENT_TYPES, COPY_MARKETS, COUNTRIES, IMPORT_DIGEST_FORMAT, MODE_ENVS } from "@contract/values/apps";
import { SELECT_FILES_MESSAGE } from "./client-form";
import { IMPORT_ASKED_MALFORMED } from "./import-question";

/*
 * The client forms' schemas, apart from client-form.ts so that zod reaches the browser only when
 * a form needs it: the server imports them, the forms load them on first use
 * (~/lib/use-schema-on-first-use).
 */

const text = () => z.string().trim().default("");
const oneOf = (values: readonly string[]) => z.enum(["", ...values] as [string, ...string[]]).default("");

/**
 * The onboard / edit form as posted (multipart, so the logo file travels with it). The spec shows
 * no required-field checks: the API's own refusals come back next to their fields.
 */
export const ClientForm = z.object({
  client_name: text(),
  primary_website: text(),
  logo: z.file().optional(),
  logo_url: text(),
  country: oneOf(COUNTRIES.map((country) => country.value)),
  market: text(),
  project_url: text(),
  // Browsers post a textarea's line breaks as CRLF; store plain newlines.
  notes: text().transform((value) => value.replace(/\r\n?/g, "\n")),
  url_code: text(),
  copy_market: oneOf(COPY_MARKETS.map((template) => template.value)),
  client_type: z.enum(["", ...CLIENT_TYPES]).default(""),
  // A checkbox posts nothing when unticked; the form starts ticked (the spec's default).
  onboard_existing_client: z.boolean().default(false),
  trigger_points: text(),
  mode_env: z.enum(MODE_ENVS).default("staging"),
  insync_prod_app_id: text(),
});
export type ClientFormValue = z.output<typeof ClientForm>;

/** The import screen's form: the ticked export file names. */
export const ImportClientsForm = z.object({
  file_name: z.array(z.string().trim().min(1), { error: SELECT_FILES_MESSAGE }).min(1, SELECT_FILES_MESSAGE),
  /** The question's digest, posted back with its confirmation: 64 hex digits, nothing else. */
  replace_asked: z.string().regex(IMPORT_DIGEST_FORMAT, IMPORT_ASKED_MALFORMED).optional(),
});
