/** The spec's texts of the client screens, word for word. */
export const NO_CLIENTS_TEXT = "No clients found for this type";
export const NO_IMPORT_FILES_TEXT = "No files available for import";
export const IMPORT_LOAD_ERROR_TEXT = "Error loading files. Please try again later.";
export const ONBOARD_TITLE = "OnBoard Client";
export const editTitle = (clientName: string) => `Welcome ${clientName}`;
