/**
 * A file name's time: UTC to the millisecond, `20261204-071700-123`. It sorts as time does and
 * tells two files of one client made in the same second apart.
 */
export function fileStamp(at = new Date()) {
  return at.toISOString().replace(/[-:]/g, "").replace("T", "-").replace(".", "-").slice(0, 19);
}
