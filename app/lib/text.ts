/** 'knowledge-store' ⇒ 'Knowledge Store', 'file_type' ⇒ 'File Type'. */
export function titleCase(value: string) {
  return value
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** Decodes a path segment without throwing on malformed escapes. */
export function decodeSegment(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
