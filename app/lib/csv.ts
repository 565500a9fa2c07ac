export { csvField, toCsv } from "@contract/csv";

/** CSV text ⇒ rows of fields (RFC 4180 quoting); a trailing line end adds no empty row. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  const endField = () => {
    row.push(field);
    field = "";
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  while (i < text.length) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else field += char;
      i += 1;
      continue;
    }
    if (char === '"') quoted = true;
    else if (char === ",") endField();
    else if (char === "\r" && text[i + 1] === "\n") {
      endRow();
      i += 1;
    } else if (char === "\n" || char === "\r") endRow();
    else field += char;
    i += 1;
  }
  if (field !== "" || row.length) endRow();
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
 * An instant in a time zone as `YYYY-MM-DD HH:mm:ss {label}`, the label being the zone's short
 * name (e.g. `GMT+2`, `UTC`) so a reader of the file knows which local time it is.
 */
export function formatInTimeZone(value: string | null | undefined, zone: string) {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  const hour = parts.hour === "24" ? "00" : parts.hour;
  return `${parts.year}-${parts.month}-${parts.day} ${pad(Number(hour))}:${parts.minute}:${parts.second} ${parts.timeZoneName}`;
}
