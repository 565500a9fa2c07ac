/** The spec's texts of the client screens, word for word. */
export const NO_CLIENTS_TEXT = "No clients found for this type";
export const NO_IMPORT_FILES_TEXT = "No files available for import";
export const IMPORT_LOAD_ERROR_TEXT = "Error loading files. Please try again later.";
export const ONBOARD_TITLE = "OnBoard Client";
export const editTitle = (clientName: string) => `Welcome ${clientName}`;
/** A person who holds a role in no client (never given one, or removed from the last): not in the spec, which shows no such case. */
export const NO_CLIENT_ACCESS_TEXT =
  "You have no access to any client. Ask an administrator, or a Client Admin of your organisation, to add you.";
