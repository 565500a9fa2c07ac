const BYTE_UNITS = ["B", "KB", "MB", "GB", "TB"] as const;

/**
 * A byte count as people read it, in steps of 1024 with at most one decimal:
 * 512 ⇒ '512 B', 1234 ⇒ '1.2 KB', 1048576 ⇒ '1 MB'.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "Unknown";
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  // 1023.96 KB would round to '1024 KB'; show the next unit instead.
  if (Math.round(value * 10) / 10 >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = (Math.round(value * 10) / 10).toFixed(1).replace(/\.0$/, "");
  return `${rounded} ${BYTE_UNITS[unit]}`;
}

/** A count with its noun in the right number (shared with the API's messages). */
export { countOf } from "@contract/values/common";
