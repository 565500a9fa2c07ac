/** The apps contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/apps.ts). */

export const CLIENT_TYPES = ["higher_ed", "ecommerce"] as const;

export const MODE_ENVS = ["staging", "production"] as const;

export const AGENT_TYPES = ["enrollment", "engagement", "ecommerce"] as const;

export const AGENT_TYPE_LABELS: Record<(typeof AGENT_TYPES)[number], string> = {
  enrollment: "Enrollment",
  engagement: "Engagement",
  ecommerce: "Ecommerce",
};

type AgentTypeValue = (typeof AGENT_TYPES)[number];

/** The agent types a client works with (spec, agent list home): ecommerce clients only ecommerce; higher_ed (and any other type) enrollment and engagement. */
export const agentTypesFor = (clientType: string | null | undefined): AgentTypeValue[] =>
  clientType === "ecommerce" ? ["ecommerce"] : ["enrollment", "engagement"];

/** Said beside the agent type when a client is given an agent of a type it does not work with. */
export function agentTypeNotOffered(clientType: string | null | undefined) {
  const types = agentTypesFor(clientType).map((type) => AGENT_TYPE_LABELS[type]);
  const client = clientType === "ecommerce" ? "An ecommerce client" : "A higher education client";
  return `${client}'s agents are ${types.join(" or ")} agents`;
}

export const COUNTRIES = [
  { value: "US", label: "United States Of America (US)" },
  { value: "UK", label: "United Kingdom (UK)" },
  { value: "EU", label: "European Union (EU)" },
  { value: "IN", label: "India (IN)" },
] as const;

/** copy_market templates; choosing one sets client_type ('Higher Edu' in the title ⇒ higher_ed). */
export const COPY_MARKETS = [
  { value: "us_eduenroll", label: "Higher Edu - Enroll" },
  { value: "us_devry", label: "Higher Edu - Engage" },
  { value: "us_configdefault", label: "Ecommerce" },
] as const;

export const MODE_ENV_LABELS: Record<(typeof MODE_ENVS)[number], string> = {
  staging: "Sandbox",
  production: "Production",
};

export { RESERVED_URL_CODES } from "./url-codes";

export const URL_CODE_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

/**
 * Text in ASCII letters where it can be: compatibility forms folded and combining marks removed
 * (NFKD), so "admisión" ⇒ "admision", "Ｗ２" ⇒ "W2". Letters with no ASCII base (ß, ł, 学) stay.
 */
export const foldToAscii = (text: string) => text.normalize("NFKD").replace(/\p{M}/gu, "");

/**
 * The spec's site code rule: anything but letters and digits is stripped, as typed and again by
 * the API. A site code names the agent in the console's addresses, in the embed script and in
 * the back office's links, so it stays in ASCII letters and digits, which every one of those
 * carries as they are: an accented letter keeps its base letter ("admisión-2025" ⇒
 * "admision2025") rather than being dropped; a letter with no ASCII base is still dropped.
 */
export const stripSiteCode = (value: string) => foldToAscii(value).replace(/[^A-Za-z0-9]/g, "");

export const AGENT_STATUSES = ["active", "inactive"] as const;
/** The agent form's Status options, as History names them too. */
export const AGENT_STATUS_LABELS: Record<(typeof AGENT_STATUSES)[number], string> = {
  active: "Active",
  inactive: "Inactive",
};

/** An import preview's digest, which a confirmation of its question carries back: a SHA-256, in lower-case hex. */
export const IMPORT_DIGEST_FORMAT = /^[0-9a-f]{64}$/;
