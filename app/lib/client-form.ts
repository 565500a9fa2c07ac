import { CLIENT_TYPES, COPY_MARKETS, foldToAscii } from "@contract/values/apps";

/*
 * The client screens' plain rules and values. The forms' zod schemas are in
 * client-form.schema.ts, so that pages using these helpers do not ship zod to the browser.
 */

/**
 * The spec's url_code rule (section 5): remove the protocol, drop a leading 'www.', split on
 * dots; with more than two parts join the subdomain parts and the second-last part, otherwise
 * take the first part. Only the host counts (a path, port or query is ignored), and the result
 * is lower-cased because url_codes are. A url_code is lower-case ASCII letters, digits and hyphens
 * (it opens every address of the client), so an internationalised host gives what the form takes:
 * accented letters keep their base letter, and what has none is left out.
 *
 *   https://www.northfield.edu          ⇒ northfield
 *   https://shop.harbor-outfitters.com  ⇒ shopharbor-outfitters
 *   apply.grad.example.ac.uk            ⇒ applygradexampleac (the rule knows no public suffixes)
 *   https://www.umontréal.ca            ⇒ umontreal
 */
export function deriveUrlCode(primaryWebsite: string): string {
  const host = primaryWebsite
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
    .replace(/^\/\//, "")
    .split(/[/?#:]/)[0]
    .replace(/^www\./, "");
  const parts = host.split(".").filter(Boolean);
  const code = parts.length > 2 ? parts.slice(0, -2).join("") + parts[parts.length - 2] : (parts[0] ?? "");
  return foldToAscii(code)
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, "")
    .replace(/^-+/, "")
    .slice(0, 63);
}

/** market = lower-cased country, underscore, url_code ('US' + 'northfield' ⇒ 'us_northfield'). */
export function marketFor(country: string, urlCode: string): string {
  if (!country && !urlCode) return "";
  return `${country.toLowerCase()}_${urlCode}`;
}

type ClientType = (typeof CLIENT_TYPES)[number];

/** A copy_market template sets client_type: 'Higher Edu' in its title ⇒ higher_ed, else ecommerce. */
export function clientTypeForCopyMarket(copyMarket: string): ClientType | "" {
  const template = COPY_MARKETS.find((candidate) => candidate.value === copyMarket);
  if (!template) return "";
  return template.label.includes("Higher Edu") ? "higher_ed" : "ecommerce";
}

/** 'a, b\nc,,' ⇒ ['a', 'b', 'c']: the trigger points field is comma- (or line-) separated text. */
export function parseTriggerPoints(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((point) => point.trim())
    .filter(Boolean);
}

export const formatTriggerPoints = (points: string[]) => points.join(", ");

/**
 * The computed fields of the client form. A blank url_code is derived from primary_website;
 * market follows country and url_code; client_type follows the copy_market template (and keeps
 * its current value when no template is chosen).
 */
export function completeClientFields(fields: {
  primary_website: string;
  url_code: string;
  country: string;
  copy_market: string;
  client_type: string;
}) {
  const urlCode = fields.url_code.trim() || deriveUrlCode(fields.primary_website);
  return {
    url_code: urlCode,
    market: marketFor(fields.country, urlCode),
    client_type: clientTypeForCopyMarket(fields.copy_market) || fields.client_type,
  };
}

/** What a new client's form starts with: mode staging, onboard_existing_client on, no trigger points. */
export const NEW_CLIENT_DEFAULTS = {
  client_name: "",
  primary_website: "",
  logo_url: "",
  country: "",
  market: "",
  project_url: "",
  notes: "",
  url_code: "",
  copy_market: "",
  client_type: "",
  onboard_existing_client: true,
  trigger_points: "",
  mode_env: "staging",
  insync_prod_app_id: "",
};
export type ClientFormDefaults = typeof NEW_CLIENT_DEFAULTS;

/** An existing client as the form's starting values. */
export function clientFormDefaults(app: {
  client_name: string;
  primary_website: string;
  logo_url: string | null;
  country: string;
  market: string;
  project_url: string;
  notes: string;
  url_code: string;
  copy_market: string;
  client_type: string;
  onboard_existing_client: boolean;
  trigger_points: string[];
  mode_env: string;
  insync_prod_app_id: string | null;
}): ClientFormDefaults {
  return {
    client_name: app.client_name,
    primary_website: app.primary_website,
    logo_url: app.logo_url ?? "",
    country: app.country,
    market: app.market,
    project_url: app.project_url,
    notes: app.notes,
    url_code: app.url_code,
    copy_market: app.copy_market,
    client_type: app.client_type,
    onboard_existing_client: app.onboard_existing_client,
    trigger_points: formatTriggerPoints(app.trigger_points),
    mode_env: app.mode_env,
    insync_prod_app_id: app.insync_prod_app_id ?? "",
  };
}

export const SELECT_FILES_MESSAGE = "Select at least one file to import";
