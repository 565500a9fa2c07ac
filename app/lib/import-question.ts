/**
 * What Import Selected answers before importing anything when a ticked file would change a client
 * that exists: the clients, what would change in each, and the files to post again, confirmed.
 */
export interface ImportReplaceQuestion {
  intent: "confirm-import-replace";
  fileNames: string[];
  replacing: { file_name: string; client_name: string; changes: string[]; change_count: number }[];
}

/** The field that says the operator has seen what the import replaces and confirmed it. */
export const IMPORT_REPLACE_CONFIRMED = "replace_confirmed";

export const isImportReplaceQuestion = (value: unknown): value is ImportReplaceQuestion =>
  typeof value === "object" && value !== null && (value as { intent?: unknown }).intent === "confirm-import-replace";

/** The question below the list of what would change. */
export const importReplaceQuestion = (files: number, clients: number) =>
  `Import ${files === 1 ? "this file" : `these ${files} files`}, replacing what ${
    clients === 1 ? "this client holds" : `these ${clients} clients hold`
  } now?`;
