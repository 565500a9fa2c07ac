/**
 * A sitemap lastmod is a W3C datetime: a year, a month, a day, or a day with a time and its zone
 * (https://www.w3.org/TR/NOTE-datetime). Also read: a space for the `T`, an offset without its
 * colon, and a time without a zone, which sitemaps write though the format wants one.
 */
const W3C_DATETIME =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/i;

/**
 * How much later than UTC's a value without a zone may end: the site's own zone is unknown, and
 * the westernmost (UTC−12) ends a day 12 hours after UTC does.
 */
const LATEST_ZONE_MS = 12 * 3_600_000;

/** An instant from UTC fields; months and days overflow into the next, as Date.UTC's do (years below 100 too). */
function utc(year: number, month: number, day = 1, hours = 0, minutes = 0, seconds = 0, ms = 0) {
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(hours, minutes, seconds, ms);
  return date.getTime();
}

/**
 * The latest moment a sitemap lastmod allows for the page's last change (ms), or null when it is
 * not such a date (the page is then fetched, as one that may have changed). A value names a period
 * (a year, a month, a day, a minute, a second) and the change may be anywhere in it: its end
 * counts. Read the same whatever the server's time zone.
 */
export function lastChangedBy(lastmod: string): number | null {
  const match = W3C_DATETIME.exec(lastmod.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const fields = [
    Number(y),
    mo ? Number(mo) - 1 : 0,
    d ? Number(d) : 1,
    Number(h ?? 0),
    Number(mi ?? 0),
    Number(s ?? 0),
  ];
  const [year, month, day, hours, minutes, seconds] = fields;
  if (month < 0 || month > 11 || day < 1 || hours > 23 || minutes > 59 || seconds > 59) return null;
  const start = utc(year, month, day, hours, minutes, seconds, fraction ? Number(`0.${fraction}`) * 1000 : 0);
  // A day that overflowed into the next month (February 30) is no date.
  if (new Date(start).getUTCDate() !== day) return null;
  // The period the value names ends where its last field given is one more; a fraction of a second names its instant.
  const last = s ? 5 : mi ? 4 : d ? 2 : mo ? 1 : 0;
  const next = fields.map((field, index) => (index === last ? field + 1 : field));
  const end = fraction ? start : utc(next[0], next[1], next[2], next[3], next[4], next[5]);
  if (!zone) return end + LATEST_ZONE_MS;
  if (zone.toUpperCase() === "Z") return end;
  const [, sign, offsetHours, offsetMinutes = "0"] = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
  if (Number(offsetHours) > 14 || Number(offsetMinutes) > 59) return null;
  const offset = (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000;
  return sign === "+" ? end - offset : end + offset;
}
