/*
 * Reading single fields of a form `readForm` (./form-data.server.ts) has already bounded and
 * checked. A field may be missing or, in a multipart body, a file where text was expected: both
 * read as nothing rather than throwing.
 */

/** A text field's value; "" when it is missing or is a file. */
export function textOf(formData: FormData, name: string) {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}

/**
 * Whether a file input holds a file the user chose. A browser posts an input left empty as a
 * nameless, empty file; a chosen file has a name even when it has no bytes.
 */
export const chosenFile = (value: FormDataEntryValue | null): value is File =>
  value !== null && typeof value !== "string" && (value.size > 0 || value.name !== "");

/** The files chosen in a multiple file input. */
export const chosenFiles = (formData: FormData, name: string) => formData.getAll(name).filter(chosenFile);
