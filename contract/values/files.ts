/** The files contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/files.ts). */

/** Tags a file can carry: which environments of the assistant may answer from it. */
export const FILE_TAGS = ["sandbox", "production"] as const;

/** The refusal of a tag not in FILE_TAGS, in the API and on the Files screen alike. */
export const FILE_TAG_REFUSAL = "Tags must be sandbox or production";

/** How the Files screen names each tag. */
export const FILE_TAG_LABELS: Record<(typeof FILE_TAGS)[number], string> = {
  sandbox: "Sandbox",
  production: "Production",
};

/** A file's size as the Files screen shows it under its name ("1.2 MB"); "" when not known. */
export const fileSizeText = (bytes: number | null) => {
  if (bytes === null) return "";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
};

/**
 * Which environments a file answers in: the ones it is tagged for, and no other. An untagged file
 * is indexed (its chunks can be read) but answers nowhere, so nothing reaches Production's
 * visitors by accident. Sandbox (stage) reads the sandbox tag, Production (prod) the production tag.
 */
export const fileAnswersIn = (tags: readonly string[], environment: "stage" | "prod") =>
  tags.includes(environment === "prod" ? "production" : "sandbox");

/** The same rule in the console's words (Files page and the Script guide). */
export const FILE_ENVIRONMENTS_RULE =
  "The assistant answers from a file only in the environments it is tagged for: sandbox for Sandbox, production for Production. An untagged file answers in neither.";

/**
 * Where an uploaded file is: waiting for its bytes, then through the same index path as a web
 * page (the URL statuses' words and colours), or failed with a readable reason.
 */
export const FILE_STATUSES = [
  "pending_upload",
  "to_be_indexed",
  "sent_for_indexing",
  "indexed",
  "failed_to_upload",
  "failed_to_index",
] as const;

export type FileStatus = (typeof FILE_STATUSES)[number];

// Kept beside the URL statuses' colours, so a page showing URL statuses need not load the files' values.
export { FILE_STATUS_COLOURS } from "./knowledge";

/** Statuses that change without anyone acting: the Files page watches while one is shown. */
export const FILE_WORKING_STATUSES: readonly FileStatus[] = ["to_be_indexed", "sent_for_indexing"];

export const MAX_FILES_PER_UPLOAD = 20;

export const FILE_UPLOAD_CONTENT_TYPE = "application/pdf";

/**
 * The name a file is listed under: commas and plus signs become underscores (the spec's rule),
 * and so do path separators and control characters, so a name never climbs folders anywhere.
 * Composed (NFC): macOS gives names decomposed ("u" and a combining diaeresis for "ü"), which
 * would look like the name a keyboard types and never equal it.
 */
export function cleanFileName(name: string) {
  const base = name
    .normalize("NFC")
    .replace(/[,+/\\]|\p{Cc}/gu, "_")
    .replace(/^[.\s]+/, "")
    .trim();
  return base.slice(-255);
}

export const isPdfName = (name: string) => /\.pdf$/i.test(name);

/** The largest logo or widget image the API stores, in megabytes (the console's forms say it too). */
export const IMAGE_MAX_MB = 2;
export const IMAGE_MAX_BYTES = IMAGE_MAX_MB * 1024 * 1024;
