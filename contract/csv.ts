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
  const text = typeof value === "string" && /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of fields ⇒ CSV text, CRLF line ends (RFC 4180). */
export function toCsv(rows: readonly (readonly unknown[])[]): string {
  return rows.map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}
