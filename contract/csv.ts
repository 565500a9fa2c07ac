/**
 * Text a spreadsheet would run as a formula (=, +, -, @, a tab or a carriage return first), and
 * text whose apostrophes come before one of those: the guard's apostrophe goes on both, so that
 * reading a file back takes exactly one off and gets the text as it was (`'=1` ⇒ `''=1` ⇒ `'=1`).
 */
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;

/**
 * A CSV field: quoted (quotes doubled) when it holds a comma, a quote or a line break. Text that a
 * spreadsheet would run as a formula (=, +, -, @ first) gets a leading apostrophe: visitors' words
 * end up in these files.
 */
export function csvField(value: unknown): string {
  const raw =
    value === null || value === undefined
      ? ""
      : typeof value === "string"
        ? value
        : typeof value === "object"
          ? JSON.stringify(value)
          : String(value);
  const text = typeof value === "string" && FORMULA_LIKE.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * UTF-8's byte order mark. Excel opens a CSV file as the machine's legacy code page unless the file
 * starts with it, so "café" and "学费" would show garbled and be saved back garbled; every CSV
 * reader of the console (decodeTextFile) takes it off.
 */
export const CSV_BOM = "\uFEFF";

/** Rows of fields ⇒ a CSV file's text, with UTF-8's byte order mark and CRLF line ends (RFC 4180). */
export function toCsv(rows: readonly (readonly unknown[])[]): string {
  return CSV_BOM + rows.map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}

/** A field's text as it was before csvField guarded it: the guard's apostrophe taken off. */
export const unguardedCsvText = (text: string) =>
  FORMULA_LIKE.test(text) && text.startsWith("'") ? text.slice(1) : text;
