import { CSV_BOM } from "@contract/csv";

export { csvField, toCsv, unguardedCsvText } from "@contract/csv";

/** Where a quoted field was opened and never closed: its record (as a spreadsheet numbers rows) and field, from 1. */
export interface UnclosedQuote {
  row: number;
  column: number;
}

export interface CsvRead {
  /** The records read; with an unclosed quote, those before the record it opened in. */
  rows: string[][];
  unclosedQuote: UnclosedQuote | null;
}

/**
 * CSV text ⇒ records of fields, read as spreadsheet programs read it (RFC 4180 quoting): a field
 * that starts with a quote is quoted (`""` in it is one quote, commas and line ends are its own);
 * a quote anywhere else is a literal character, and text after a closing quote is kept as typed.
 * A quote that never closes would swallow the rest of the file into one field, so it is reported
 * instead (where it opened). A trailing line end adds no empty record, and a leading byte order
 * mark (every export writes one) is no part of the first field. Fields are separated by commas
 * unless another `delimiter` is given (a spreadsheet set to a European locale saves semicolons).
 */
export function readCsv(file: string, delimiter: "," | ";" | "\t" = ","): CsvRead {
  const text = file.startsWith(CSV_BOM) ? file.slice(1) : file;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  /** Nothing of the current field read yet: only there does a quote open a quoted field. */
  let fieldStart = true;
  let i = 0;
  const endField = () => {
    row.push(field);
    field = "";
    fieldStart = true;
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  while (i < text.length) {
    const char = text[i];
    if (char === '"' && fieldStart) {
      const close = closingQuote(text, i + 1);
      if (close < 0) return { rows, unclosedQuote: { row: rows.length + 1, column: row.length + 1 } };
      field = text.slice(i + 1, close).replaceAll('""', '"');
      fieldStart = false;
      i = close + 1;
    } else if (char === delimiter) {
      endField();
      i += 1;
    } else if (char === "\r" || char === "\n") {
      endRow();
      i += char === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += char;
      fieldStart = false;
      i += 1;
    }
  }
  // A last record without its line end; a line end at the very end adds none.
  if (!fieldStart || row.length) endRow();
  return { rows, unclosedQuote: null };
}

/** The index of the quote closing a quoted field whose text starts at `from` (`""` being a quote in it), or -1. */
function closingQuote(text: string, from: number) {
  let at = text.indexOf('"', from);
  while (at >= 0 && text[at + 1] === '"') at = text.indexOf('"', at + 2);
  return at;
}

/** CSV text the console wrote itself (its exports) ⇒ records of fields; a quote never closed throws. */
export function parseCsv(text: string): string[][] {
  const { rows, unclosedQuote } = readCsv(text);
  if (unclosedQuote)
    throw new Error(`A quote opened in row ${unclosedQuote.row}, field ${unclosedQuote.column}, is never closed`);
  return rows;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A valid IANA time zone name, or UTC. */
export function safeTimeZone(zone: string | null | undefined) {
  if (!zone) return "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone;
  } catch {
    return "UTC";
  }
}

/**
 * One formatter a zone, kept: making one costs about 70 µs, so a 10,000-row export with three
 * dates a row spent over two seconds on them alone (and held every other request that long).
 */
const formatsByZone = new Map<string, Intl.DateTimeFormat>();
const ZONES_KEPT = 64;

function timeZoneFormat(zone: string) {
  let format = formatsByZone.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    });
    if (formatsByZone.size >= ZONES_KEPT) formatsByZone.clear();
    formatsByZone.set(zone, format);
  }
  return format;
}

/**
 * An instant in a time zone as `YYYY-MM-DD HH:mm:ss {label}`, the label being the zone's short
 * name (e.g. `GMT+2`, `UTC`) so a reader of the file knows which local time it is.
 */
export function formatInTimeZone(value: string | null | undefined, zone: string) {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const parts = Object.fromEntries(
    timeZoneFormat(zone)
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  const hour = parts.hour === "24" ? "00" : parts.hour;
  return `${parts.year}-${parts.month}-${parts.day} ${pad(Number(hour))}:${parts.minute}:${parts.second} ${parts.timeZoneName}`;
}
