const pad = (n: number) => String(n).padStart(2, "0");

/** The spec's table date format: MM/DD/YYYY | HH:mm (UTC on the server, so both renders agree). */
export function formatDateTime(value: string | Date) {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return "";
  return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()} | ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}

/**
 * The same with its zone said, MM/DD/YYYY | HH:mm UTC: what a screen shows when nothing near the
 * date says the console's times are UTC (a person reading it would take it for their own time).
 */
export function formatDateTimeUtc(value: string | Date) {
  const text = formatDateTime(value);
  return text && `${text} UTC`;
}

/** A message's time of day to the second, HH:mm:ss UTC: the messages of one conversation are often a minute apart or less. */
export function formatTimeOfDay(value: string | Date) {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return "";
  return `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} UTC`;
}
