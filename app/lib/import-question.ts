/**
 * What Import Selected answers before importing anything when a ticked file would change a client
 * that exists: the clients, what would change in each, and the files to post again, confirmed.
 */
export interface ImportReplaceQuestion {
  intent: "confirm-import-replace";
  /** What is asked, as a digest the confirmation posts back: the import goes ahead only while it is still what it would do. */
  asked: string;
  /** Asked again: what a confirmation was given for is no longer what the import would do. */
  changedSince: boolean;
  fileNames: string[];
  replacing: { file_name: string; client_name: string; changes: string[]; change_count: number }[];
}

/**
 * The import page with these files ticked: where a failed import or a cancelled question leads, so
 * that what was not imported stays ticked, with or without JavaScript.
 */
export function importPageTicking(fileNames: string[]) {
  const query = new URLSearchParams(fileNames.map((fileName) => ["file_name", fileName])).toString();
  return `/clients/import${query ? `?${query}` : ""}`;
}

/** The field that says the operator has seen what the import replaces and confirmed it. */
export const IMPORT_REPLACE_CONFIRMED = "replace_confirmed";

/** The field that carries what was asked (the question's digest) with the confirmation. */
export const IMPORT_REPLACE_ASKED = "replace_asked";

/** Why a confirmation came back as a question again. */
export const IMPORT_CHANGED_SINCE_TEXT =
  "What the import would change has changed since you were asked, so nothing was imported. Here is what it would change now.";

/** A confirmation whose digest is not one the page could have asked with (its form is fixed). */
export const IMPORT_ASKED_MALFORMED = "This confirmation is not one the page asked for: import the files again";

export const isImportReplaceQuestion = (value: unknown): value is ImportReplaceQuestion =>
  typeof value === "object" && value !== null && (value as { intent?: unknown }).intent === "confirm-import-replace";

/** The question below the list of what would change. */
export const importReplaceQuestion = (files: number, clients: number) =>
  `Import ${files === 1 ? "this file" : `these ${files} files`}, replacing what ${
    clients === 1 ? "this client holds" : `these ${clients} clients hold`
  } now?`;
