/** The integrations contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/integrations.ts). */

export const INTEGRATION_GROUPS = ["CRM", "LMS"] as const;

export const INTEGRATION_ENVIRONMENTS = ["staging", "production"] as const;

export const DEFAULT_INTEGRATION_ENVIRONMENT = "staging";

/** What a secret comes back as: never the value, only that one is stored and how it ends. */
export const SECRET_MASK_PREFIX = "••••••";

/** The card groups' headings. */
export const INTEGRATION_GROUP_TITLES: Record<(typeof INTEGRATION_GROUPS)[number], string> = {
  CRM: "Agent System Integration",
  LMS: "Learning Management System",
};

/** The longest value of one setting. */
export const SETTING_MAX_CHARS = 4000;
export const SETTING_TOO_LONG = `Values are at most ${SETTING_MAX_CHARS.toLocaleString("en-US")} characters`;

/** The catalogue names every setting that holds a web address `…_url` (Instance URL, Canvas URL, …). */
const isAddressSetting = (name: string) => name.endsWith("_url");

/**
 * A full https address: the system's API is called there with the client's credentials, so
 * "yourorg.my.salesforce.com" alone will not do, and neither will plain http.
 */
function isWebAddress(value: string) {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname.includes(".");
  } catch {
    return false;
  }
}

/** Whether a catalogue setting holds a web address (the API also refuses one on a private host). */
export const holdsAddress = (field: { name: string }) => isAddressSetting(field.name);

/**
 * What is wrong with a setting's typed value, or null: the API's rule, which the console checks
 * too before a save, so that one save names every problem (a missing value is the required
 * check's to say). A secret's mask stands for the stored value and is not checked; the same
 * characters in any other setting are text like any other.
 */
export function settingValueError(
  field: { name: string; title: string; placeholder?: string | null; secret?: boolean },
  typed: string,
): string | null {
  const value = typed.trim();
  if (!value || (field.secret && value.startsWith(SECRET_MASK_PREFIX))) return null;
  if (typed.length > SETTING_MAX_CHARS) return SETTING_TOO_LONG;
  if (isAddressSetting(field.name) && !isWebAddress(value))
    return `${field.title} must be a full address starting with https://, like ${field.placeholder || "https://example.com"}`;
  return null;
}
