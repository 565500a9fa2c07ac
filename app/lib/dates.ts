const pad = (n: number) => String(n).padStart(2, "0");

/** The spec's table date format: MM/DD/YYYY | HH:mm (UTC on the server, so both renders agree). */
export function formatDateTime(value: string | Date) {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return "";
  return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${date.getUTCFullYear()} | ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}

/** A message's time of day to the second, HH:mm:ss UTC: the messages of one conversation are often a minute apart or less. */
export function formatTimeOfDay(value: string | Date) {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return "";
  return `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} UTC`;
}
