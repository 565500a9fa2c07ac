/** The personalisation contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/personalisation.ts). */

/** The spec's profile data categories, in its order: a field's Group. */
export const PROFILE_GROUPS = [
  "Academic Profile",
  "Professional Profile",
  "Learning Interests",
  "Program Structure",
  "Program Content & Descriptions",
  "Program Eligibility Requirements",
  "Personal Contact Information",
  "Academic & Partnership Details",
  "Scheduling & Duration",
  "Budgets & Financials",
  "Career & Skill Maps",
  "Residency & Visa",
  "Communication Preferences",
  "Engagement History",
  "Enrollment/Application History",
  "Others",
] as const;

export const FIELD_TYPES = ["text", "number", "boolean", "array", "json"] as const;

export const MODEL_TYPES = ["user_profile", "program_profile"] as const;

/** The JSON view's heading for fields without a group. */
export const UNGROUPED = "Ungrouped";

export const DATA_MODEL_MESSAGES = {
  importWarning: "This will overwrite existing data.",
  confirmDelete: "Confirm Delete",
  buildWarning: "Building the recommendation model might take some time.",
} as const;

/**
 * Field names are what the assistant stores values under: a letter first, then letters, digits, _
 * and spaces; a letter of any script ("prénom_étudiant", "学部"), with its accents as combining marks.
 */
export const FIELD_NAME_PATTERN = /^\p{L}[\p{L}\p{M}\p{N}_ ]*$/u;
export const FIELD_NAME_INVALID = "Start with a letter; use letters, digits, spaces and _ only";

/**
 * A field name as it is stored: accents composed (NFC) and each run of spaces one plain space, as a
 * visitor's message writes them, so that "my home town is …" fills "home  town", "école" typed with
 * a combining accent is the "école" the page shows, and a no-break space pasted from a document or
 * the full-width space of a Japanese input method counts as the space it looks like.
 */
export const tidyFieldName = (name: string) => name.normalize("NFC").replace(/\p{Zs}+/gu, " ");

/**
 * What makes two names the same field to the assistant, which reads a name in any case and its _
 * as a space: "Home_Town" and "home town" fill from the same words, so a model holds only one.
 */
export const fieldNameKey = (name: string) => tidyFieldName(name).toLowerCase().replace(/[_ ]+/g, " ");
